import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server-kit',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Opening a new PGlite folder alone takes ~4 s idle, far more on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
