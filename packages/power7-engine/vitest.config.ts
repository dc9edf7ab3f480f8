import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'power7-engine',
    isolate: process.env.VITEST_ISOLATE === '1', // see vitest.config.ts
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Worker threads and property runs take many times longer when the 2 cores are busy.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
