import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'power7-engine',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
