// Worker bootstrap for running from sources without esbuild: registers tsx's loader in the thread,
// then loads the real winners worker (see scan-worker.mjs).
import { tsImport } from 'tsx/esm/api';

await tsImport('./winners-worker.ts', import.meta.url);
