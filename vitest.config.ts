import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each project keeps its own config beside its code.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/portal-api', 'apps/power7-api', 'apps/web'],
    // Vitest's default on 2 cores is a single worker, so the files ran one after another while most of
    // them wait on servers, databases and child processes. Three at a time keeps both cores busy
    // (docs/benchmarks/test-suite.md); VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
  },
});
