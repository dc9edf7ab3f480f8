// Worker bootstrap from the sources (as scan-worker.mjs): registers tsx's loader in this thread, then
// loads the real worker. The compiled services start the compiled xlsx-worker.cjs instead.
import { tsImport } from 'tsx/esm/api';

await tsImport('./xlsx-worker.ts', import.meta.url);
