/*
 * The app's `zod`: vite.config.ts resolves every `import … from 'zod'` of the build (the app's and
 * @pa/contracts') to this module. Zod compiles fast object parsers with `new Function` and probes
 * `Function('')` when the first object schema is built; the CSP (script-src without 'unsafe-eval')
 * blocks that and reports a violation. As the only way to reach zod, this module sets `jitless` before
 * any importer can build a schema, whatever order the build's chunks are evaluated in.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
export { z, z as default } from 'zod/v4';
