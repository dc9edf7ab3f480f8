import { useCallback, useState } from 'react';
import { toast } from 'sonner';
import { isEnvelope } from '@/lib/api/envelope';
import { attachmentName, readWithProgress, saveBlob } from '../lib/save-file';
import { power7Url, unreachableMessage, usePower7Headers } from './use-power7-request';

/**
 * Downloads a file of the Power 7 service with the caller's token and saves it under the name the
 * service gives; `progress` tells the bytes received of the one under way (and the rows it holds, when
 * the service says so in `X-Total-Rows`). `body`: a POST of that JSON (the draws export).
 */
export function useDownload() {
  const headersFor = usePower7Headers();
  const [progress, setProgress] = useState<{
    path: string;
    bytes: number;
    rows?: number;
  } | null>(null);

  const download = useCallback(
    async (path: string, fallbackName: string, body?: unknown) => {
      setProgress({ path, bytes: 0 });
      const send = (headers: Record<string, string>) =>
        fetch(
          power7Url(path),
          body === undefined
            ? { headers }
            : {
                method: 'POST',
                headers: { ...headers, 'content-type': 'application/json' },
                body: JSON.stringify(body),
              },
        );
      try {
        let headers = await headersFor();
        if (!headers) return;
        let response = await send(headers);
        if (response.status === 401) {
          headers = await headersFor(true);
          if (!headers) return;
          response = await send(headers);
        }
        if (!response.ok) {
          const body: unknown = await response.json().catch(() => null);
          toast.error(
            isEnvelope(body) && body.message
              ? body.message
              : `The download failed (${response.status}).`,
          );
          return;
        }
        const total = Number(response.headers.get('x-total-rows'));
        const rows =
          Number.isInteger(total) && response.headers.has('x-total-rows') ? total : undefined;
        const blob = await readWithProgress(response, (bytes) =>
          setProgress({ path, bytes, ...(rows !== undefined ? { rows } : {}) }),
        );
        saveBlob(blob, attachmentName(response.headers.get('content-disposition'), fallbackName));
      } catch (error) {
        toast.error(unreachableMessage(error));
      } finally {
        setProgress(null);
      }
    },
    [headersFor],
  );
  return { download, progress };
}
