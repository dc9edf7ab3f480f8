import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  test: {
    name: 'web',
    isolate: process.env.VITEST_ISOLATE === '1', // see vitest.config.ts
    // Every file in jsdom, pure-logic ones too: a worker that goes from a Node-environment file to
    // a jsdom one builds jsdom again (~1 s). The project alone on 3 workers: 41 CPU-s with 12 of
    // its files in Node, 27 with all in jsdom (docs/benchmarks/test-suite.md, session 22).
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup-tests.ts'],
    // Rendering + user-event flows take several seconds when the 2 cores are busy.
    testTimeout: 30_000,
    // Node's fetch needs absolute URLs; jsdom's page is http://localhost:3000.
    env: {
      VITE_PORTAL_API_URL: 'http://localhost:3000',
      VITE_POWER7_API_URL: 'http://localhost:3001',
    },
  },
});
