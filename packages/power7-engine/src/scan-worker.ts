import { parentPort } from 'node:worker_threads';
import { scanTops, type ScanParams } from './scan';
import type { Tables } from './tables';

/** Message from the main thread: scan these top numbers over the shared tables. */
export interface ScanRequest {
  tables: Tables;
  params: ScanParams;
  tops: number[];
}

const port = parentPort;
if (!port) throw new Error('scan-worker.ts must run in a worker thread');

port.on('message', (req: ScanRequest) => {
  try {
    const stats = scanTops(
      req.tables,
      req.params,
      req.tops,
      (chunk) => {
        port.postMessage({ type: 'chunk', chunk }, [
          chunk.ranks.buffer as ArrayBuffer,
          ...chunk.counts.map((c) => c.buffer as ArrayBuffer),
        ]);
      },
      (draws) => {
        port.postMessage({ type: 'progress', draws });
      },
    );
    port.postMessage({ type: 'done', stats }, [stats.hist.buffer as ArrayBuffer]);
  } catch (err) {
    port.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
});
port.postMessage({ type: 'ready' });
