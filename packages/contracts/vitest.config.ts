import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'contracts',
    isolate: process.env.VITEST_ISOLATE === '1', // see vitest.config.ts
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
