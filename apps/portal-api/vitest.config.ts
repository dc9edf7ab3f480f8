import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'portal-api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One real PostgreSQL server per run (test/global-setup.ts); PGlite needs nothing.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
