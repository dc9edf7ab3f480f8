import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'power7-api',
    isolate: process.env.VITEST_ISOLATE === '1', // see vitest.config.ts
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One migrated PGlite folder per run, copied for each test app (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    // Measured at load ~15 on 2 cores: single tests that open PGlite folders took up to 20 s.
    testTimeout: 60_000,
    // A new PGlite folder, warm worker threads and a first analysis: over a minute on a busy machine.
    hookTimeout: 180_000,
  },
});
