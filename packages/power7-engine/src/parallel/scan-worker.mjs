// The scan worker started from the sources (`workerEntry` in worker-entry.ts): a thread does not
// inherit its parent's loader hooks, so this registers tsx's loader in the thread, then loads the
// worker. A build starts the compiled scan-worker.cjs instead (scripts/build-services.mjs).
import { tsImport } from 'tsx/esm/api';

await tsImport('./scan-worker.ts', import.meta.url);
