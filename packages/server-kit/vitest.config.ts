import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server-kit',
    isolate: process.env.VITEST_ISOLATE === '1', // see vitest.config.ts
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Opening a new PGlite folder takes ~4 s idle and well over Vitest's 5 s default on a loaded
    // machine; these tests open real databases and servers.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
