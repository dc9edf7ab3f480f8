import { parentPort, workerData } from 'node:worker_threads';
import { EngineError } from '../core/errors';
import { sheetAsCsv } from '../reading/xlsx-sheet';

/**
 * The XLSX worker thread: checks a workbook against `XLSX_LIMITS`, then streams its first sheet as CSV
 * chunks to the thread that started it (`xlsx-reader.ts`), which bounds this thread's heap and time.
 * ExcelJS writes a worksheet it meets before the shared strings to a temp file; the starter points
 * this thread's TMPDIR at a scratch folder it removes afterwards.
 */
export interface XlsxWorkerData {
  path: string;
  /** Chunks sent but not yet taken by the reader before this thread waits (back-pressure). */
  window: number;
}

/** Worker → reader. */
export type XlsxWorkerReply =
  | { type: 'chunk'; bytes: Uint8Array }
  | { type: 'done' }
  | { type: 'failed'; code: EngineError['code'] | null; message: string };

/** Reader → worker: one chunk taken. */
export interface XlsxWorkerAck {
  type: 'taken';
}

const port = parentPort;
if (!port) throw new Error('xlsx-worker.ts must run in a worker thread');
const { path, window } = workerData as XlsxWorkerData;

let inFlight = 0;
let wake: (() => void) | null = null;
port.on('message', (message: XlsxWorkerAck) => {
  if (message.type !== 'taken') return;
  inFlight--;
  wake?.();
  wake = null;
});

async function run(): Promise<void> {
  try {
    for await (const chunk of sheetAsCsv(path)) {
      while (inFlight >= window) await new Promise<void>((resolve) => (wake = resolve));
      inFlight++;
      const bytes = new Uint8Array(chunk);
      port!.postMessage({ type: 'chunk', bytes } satisfies XlsxWorkerReply, [bytes.buffer]);
    }
    port!.postMessage({ type: 'done' } satisfies XlsxWorkerReply);
  } catch (err) {
    const reply: XlsxWorkerReply = {
      type: 'failed',
      code: err instanceof EngineError ? err.code : null,
      message: (err as Error).message,
    };
    port!.postMessage(reply);
  }
  // the reader ends this thread once it has the last message
}

void run();
