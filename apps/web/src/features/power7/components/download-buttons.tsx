import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { useDownload } from '../hooks/use-download';
import { formatBytes } from '../lib/format';

/** One file a button downloads: where from, under which name, and the button's words. */
export interface DownloadFile {
  key: string;
  url: string;
  name: string;
  label: string;
}

/**
 * A row's download buttons (winners, refused tickets), all disabled while one file comes in, with
 * the bytes received announced politely.
 */
export function DownloadButtons({
  files,
  downloads: { download, progress },
  className,
  progressClassName = 'text-muted-foreground text-sm',
}: {
  files: DownloadFile[];
  /** The page's download state (one download at a time). */
  downloads: ReturnType<typeof useDownload>;
  className?: string;
  progressClassName?: string;
}) {
  return (
    <>
      {files.map((file) => (
        <Button
          key={file.key}
          variant="outline"
          className={className}
          disabled={progress !== null}
          onClick={() => void download(file.url, file.name)}
        >
          <Download className="size-4" aria-hidden="true" /> {file.label}
        </Button>
      ))}
      {progress ? (
        <span className={progressClassName} aria-live="polite">
          Downloading… {formatBytes(progress.bytes)}
        </span>
      ) : null}
    </>
  );
}
