import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'power7-api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    // A new PGlite folder, warm worker threads and a first analysis: over a minute on a busy machine.
    hookTimeout: 180_000,
  },
});
