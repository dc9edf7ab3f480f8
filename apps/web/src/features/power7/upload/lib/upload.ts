import type { Envelope } from '@pa/contracts/envelope';
import { isEnvelope } from '@/lib/api/envelope';
import { fallbackEnvelope } from '@/lib/api/api-error';

export interface UploadProgress {
  /** When this was measured (ms, performance.now()). */
  at: number;
  /** Bytes of the request body sent so far (the file and the form fields). */
  loaded: number;
  total: number;
  /** Recent sending speed in bytes per second (0 until it can be measured). */
  bytesPerSecond: number;
  /** Estimated seconds until the body is sent, null while unknown. */
  secondsLeft: number | null;
}

/** Speed over the last second or so of progress events, so a pause shows at once. */
export class SpeedMeter {
  private samples: { at: number; loaded: number }[] = [];
  constructor(private readonly windowMs = 1500) {}

  add(at: number, loaded: number, total: number): UploadProgress {
    this.samples.push({ at, loaded });
    while (this.samples.length > 2 && at - this.samples[0]!.at > this.windowMs)
      this.samples.shift();
    const first = this.samples[0]!;
    const elapsed = (at - first.at) / 1000;
    const bytesPerSecond = elapsed > 0.05 ? (loaded - first.loaded) / elapsed : 0;
    const secondsLeft = bytesPerSecond > 0 ? (total - loaded) / bytesPerSecond : null;
    return { at, loaded, total, bytesPerSecond, secondsLeft };
  }
}

export interface UploadRequest {
  url: string;
  form: FormData;
  headers: Record<string, string>;
  onProgress: (progress: UploadProgress) => void;
  signal: AbortSignal;
}

export interface UploadAnswer {
  status: number;
  envelope: Envelope<unknown>;
}

/**
 * Sends the multipart form with XMLHttpRequest, the one browser API that reports upload progress.
 * Resolves with the server's envelope (or the generic one when the answer is not an envelope);
 * rejects with an AbortError when `signal` fires and with a TypeError when the network fails.
 */
export function sendUpload({ url, form, headers, onProgress, signal }: UploadRequest) {
  return new Promise<UploadAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const meter = new SpeedMeter();
    xhr.open('POST', url);
    xhr.responseType = 'json';
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable)
        onProgress(meter.add(performance.now(), event.loaded, event.total));
    };
    xhr.onload = () => {
      const body: unknown = xhr.response;
      resolve({
        status: xhr.status,
        envelope: isEnvelope(body) ? body : fallbackEnvelope(xhr.status),
      });
    };
    xhr.onerror = () => reject(new TypeError('Cannot reach the Power 7 service.'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
