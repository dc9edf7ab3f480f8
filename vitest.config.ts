import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each project keeps its own config beside its code.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/portal-api', 'apps/power7-api', 'apps/web'],
    // Vitest's default on 2 cores is a single worker, so the files ran one after another while most of
    // them wait on servers, databases and child processes. Three at a time keeps both cores busy
    // (docs/benchmarks/test-suite.md); VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    // The process tests start the compiled services and CLI: built first when stale.
    globalSetup: ['scripts/vitest-global-setup.mjs'],
    // Every project sets `isolate: false`: a worker keeps its loaded modules from one test file to the
    // next instead of importing them again for each file (the portal's project: 265 → 113 s, half the
    // CPU; docs/benchmarks/test-suite.md), and the fixtures cached at module level (the portal's
    // migrated, seeded PGlite template) are made once per worker instead of once per file. A test file
    // must therefore leave no state behind; VITEST_ISOLATE=1 gives each file fresh modules again, to
    // check whether a failure comes from another file.
  },
});
