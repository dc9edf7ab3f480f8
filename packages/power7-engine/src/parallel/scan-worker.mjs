// Worker bootstrap: the engine runs as TypeScript without a build step, so a worker thread first
// registers tsx's loader (worker threads do not inherit the parent's loader hooks), then loads the
// real worker. Works the same under `tsx`, Vitest and a service started with `tsx src/server.ts`.
import { tsImport } from 'tsx/esm/api';

await tsImport('./scan-worker.ts', import.meta.url);
