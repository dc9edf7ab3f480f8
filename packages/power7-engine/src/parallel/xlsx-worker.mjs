// The xlsx worker started from the sources (`workerEntry` in worker-entry.ts): a thread does not
// inherit its parent's loader hooks, so this registers tsx's loader in the thread, then loads the
// worker. A build starts the compiled xlsx-worker.cjs instead (scripts/build-services.mjs).
import { tsImport } from 'tsx/esm/api';

await tsImport('./xlsx-worker.ts', import.meta.url);
