import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { CancelledError, EngineError } from '../core/errors';
import { startWorker } from '../parallel/worker-entry';
import type { XlsxWorkerAck, XlsxWorkerData, XlsxWorkerReply } from '../parallel/xlsx-worker';

/**
 * How far reading one XLSX may go. A workbook is read on a worker thread of its own: a hostile one
 * (a 160 KB zip of never-closed tags once took a service's heap to 5.5 GB and the process down) fails
 * its own read with XLSX_TOO_LARGE and nothing else.
 */
export interface XlsxReadOptions {
  /** Heap of the reading thread (V8's old generation), in MiB. */
  maxMemoryMb?: number;
  /** Time the whole read may take, in seconds. */
  maxSeconds?: number;
  /**
   * Folder under which the read's scratch folder (ExcelJS's temp files) is made and removed; a
   * session passes its own folder, so what a killed process leaves goes with the session.
   */
  scratchParent?: string;
  signal?: AbortSignal;
}

/** The scratch folder's name starts so (`removeLeftovers` knows it). */
export const XLSX_SCRATCH_PREFIX = 'xlsx-scratch-';

export const XLSX_READ_DEFAULTS = { maxMemoryMb: 1024, maxSeconds: 600 } as const;

function startXlsxWorker(data: XlsxWorkerData, maxMemoryMb: number, tmpDir: string): Worker {
  const options = {
    workerData: data,
    // young generation and code space stay V8's defaults; the old generation is what a bomb fills
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
    // ExcelJS's temp files (via `tmp`, which asks os.tmpdir() each time) land in the scratch folder
    env: { ...process.env, TMPDIR: tmpDir },
  };
  return startWorker('xlsx', options);
}

const tooLarge = (message: string) => new EngineError('XLSX_TOO_LARGE', message);

/**
 * Streams the first sheet of an XLSX file as CSV bytes (`,`-separated, RFC 4180 quoting), one line per
 * sheet row, blank lines for skipped rows so line numbers equal sheet row numbers; rows shorter than
 * the header are padded with empty cells. The workbook is checked against `XLSX_LIMITS` and read on
 * a worker thread with a bounded heap and time (`XlsxReadOptions`), its temp files in a scratch
 * folder removed when the read ends, however it ends. Throws XLSX_INVALID for a broken or truncated
 * workbook, XLSX_TOO_LARGE for one past a limit.
 */
export async function* xlsxAsCsv(
  path: string,
  options: XlsxReadOptions = {},
): AsyncGenerator<Buffer> {
  const maxMemoryMb = options.maxMemoryMb ?? XLSX_READ_DEFAULTS.maxMemoryMb;
  const maxSeconds = options.maxSeconds ?? XLSX_READ_DEFAULTS.maxSeconds;
  const { signal } = options;
  if (signal?.aborted) throw new CancelledError();
  const scratch = await mkdtemp(join(options.scratchParent ?? os.tmpdir(), XLSX_SCRATCH_PREFIX));
  const worker = startXlsxWorker({ path, window: 4 }, maxMemoryMb, scratch);

  // what the worker sent and the reader has not taken yet, and how the read ended (once)
  const chunks: Buffer[] = [];
  // (`as`: the handlers set it, so the loop must not take it for always null)
  let ended = null as { error: Error | null } | null;
  let wake: (() => void) | null = null;
  const end = (error: Error | null) => {
    ended ??= { error };
    wake?.();
  };
  worker.on('message', (reply: XlsxWorkerReply) => {
    if (reply.type === 'chunk') chunks.push(Buffer.from(reply.bytes));
    else if (reply.type === 'done') end(null);
    else
      end(
        reply.code
          ? new EngineError(reply.code, reply.message)
          : new EngineError(
              'XLSX_INVALID',
              `The XLSX file is damaged and cannot be read (${reply.message}).`,
            ),
      );
    wake?.();
  });
  worker.on('error', (err: Error & { code?: string }) =>
    end(
      err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? tooLarge(
            `Reading the XLSX file needed more than ${maxMemoryMb} MiB of memory; this does not look like a customer file (save it as CSV).`,
          )
        : new EngineError('XLSX_INVALID', `The XLSX file cannot be read (${err.message}).`),
    ),
  );
  worker.on('exit', () =>
    end(new EngineError('XLSX_INVALID', 'The XLSX reader stopped before the end of the sheet.')),
  );
  const timer = setTimeout(
    () =>
      end(
        tooLarge(
          `Reading the XLSX file took longer than ${maxSeconds} s; this does not look like a customer file (save it as CSV).`,
        ),
      ),
    maxSeconds * 1000,
  );
  const onAbort = () => end(new CancelledError());
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort(); // aborted while the scratch folder was being made

  try {
    for (;;) {
      // a failure (limit, timeout, cancel) stops the read at once; a finished one is read to the end
      const done = ended;
      if (done?.error) throw done.error;
      const chunk = chunks.shift();
      if (chunk) {
        worker.postMessage({ type: 'taken' } satisfies XlsxWorkerAck);
        yield chunk;
      } else if (done) return;
      else {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    await worker.terminate();
    await rm(scratch, { recursive: true, force: true });
  }
}
