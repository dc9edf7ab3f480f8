import { useEffect, useState } from 'react';
import { PAYOUT_FIELDS, type UploadFormInput } from '@pa/contracts/power7';
import { sendUpload, type UploadAnswer, type UploadProgress } from '../lib/upload';
import { power7Url, usePower7Headers } from '../../hooks/use-power7-request';

/** The form's fields as the upload sends them (only the fields of the chosen budget type). */
export function uploadFields(values: UploadFormInput): Record<string, string> {
  const fields: Record<string, string> = { budget_type: values.budget_type };
  if (values.budget_type === 'fixed') fields.budget = values.budget ?? '';
  else {
    fields.budget_min = values.budget_min ?? '';
    fields.budget_max = values.budget_max ?? '';
  }
  for (const field of PAYOUT_FIELDS) fields[field] = values[field] ?? '';
  if (values.pool_size?.trim()) fields.pool_size = values.pool_size.trim();
  if (values.currency?.trim()) fields.currency = values.currency.trim();
  return fields;
}

/**
 * Sends the customer file with the form's fields, with progress, cancel, one retry on a 401 with a
 * refreshed token, and an abort when the form unmounts (the form asks before the page is left
 * mid-upload: `LeaveGuard`).
 * `send` resolves with the service's answer (null when signed out) and rejects with an AbortError
 * on cancel or a TypeError when the service cannot be reached.
 */
export function useCustomerUpload() {
  const headersFor = usePower7Headers();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [upload, setUpload] = useState<AbortController | null>(null);
  // leaving the page stops the upload under way
  useEffect(() => () => upload?.abort(), [upload]);

  const send = async (file: File, values: UploadFormInput): Promise<UploadAnswer | null> => {
    const controller = new AbortController();
    setUpload(controller);
    const attempt = async (forceRefresh: boolean) => {
      const headers = await headersFor(forceRefresh);
      if (!headers) return null;
      const form = new FormData();
      for (const [name, value] of Object.entries(uploadFields(values))) form.append(name, value);
      form.append('customer_file', file, file.name);
      setProgress({ at: 0, loaded: 0, total: file.size, bytesPerSecond: 0, secondsLeft: null });
      return sendUpload({
        url: power7Url('/api/upload/'),
        form,
        headers,
        onProgress: setProgress,
        signal: controller.signal,
      });
    };
    try {
      const answer = await attempt(false);
      return answer?.status === 401 ? await attempt(true) : answer;
    } finally {
      setUpload(null);
      setProgress(null);
    }
  };
  return { send, progress, cancel: () => upload?.abort() };
}
