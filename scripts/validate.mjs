#!/usr/bin/env node
// `npm run validate`: every check and test, in stages. The steps of a stage run two at a time, each
// line prefixed with its step; a stage starts when the one before it passed. The two test runners get
// a stage each: side by side on 2 cores (tried on 2026-11-26) every test ran ~5× slower and the whole
// took longer than one after the other.
// Where the time goes and why this shape: docs/benchmarks/test-suite.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

/**
 * npm scripts, stage by stage. `build:web` is the browser suite's web build, made before it runs;
 * `build:services` the compiled services and CLI, made before any test starts them (a test that
 * rebuilt them while another started the product from them could pull a chunk from under it).
 * Lint runs as its two halves, the web app and everything on Node (`npm run lint` is both at once):
 * whole, it was the stage's long step (~67–90 s) while the other lane ran out of work after ~60 s;
 * the halves cost no more CPU than the whole. `lint:promises` is the two type-aware rules in oxlint's
 * tsgolint (ADR 027): ESLint builds no TypeScript program. The longest steps come first, so the two
 * lanes end together.
 * `check:docs` (under a second) fails when a document names a repository path that does not exist.
 * `check:folders` (under a second) fails when a folder under apps/web/src/features holds more than 18
 * source files. `pglite:empty` makes the one empty PGlite cluster that both test stages copy
 * (`PA_EMPTY_PGLITE`, below) where the Vitest projects and the browser suite ran initdb themselves.
 */
const STAGES = [
  [
    'lint:node',
    'lint:web',
    'format:check',
    'lint:promises',
    'typecheck',
    'knip',
    'pglite:empty',
    'build:web',
    'build:services',
    'check:docs',
    'check:folders',
  ],
  ['test:unit'],
  ['test:browser'],
];
/** Steps of a stage running at once: two keep both cores busy without starving the test runners. */
const AT_ONCE = Number(process.env.VALIDATE_AT_ONCE ?? 2);

function runStep(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    });
    for (const stream of [child.stdout, child.stderr]) {
      readline
        .createInterface({ input: stream })
        .on('line', (line) => process.stdout.write(`[${script}] ${line}\n`));
    }
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(
        `[${script}] ${code === 0 ? 'passed' : `FAILED (exit code ${code})`} in ${seconds} s`,
      );
      resolve({ script, code: code ?? 1, seconds });
    });
  });
}

/** Runs the steps with at most `limit` at a time; resolves with every step's result. */
async function runStage(steps, limit) {
  const queue = [...steps];
  const results = [];
  const lane = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) results.push(await runStep(step));
  };
  await Promise.all(Array.from({ length: Math.min(limit, steps.length) }, lane));
  return results;
}

// One empty PGlite cluster for the run (`npm run pglite:empty`): every step inherits its folder, and
// it goes with the run.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-validate-'));
process.env.PA_EMPTY_PGLITE ??= path.join(scratch, 'empty-pglite');
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));

const timings = [];
for (const steps of STAGES) {
  const results = await runStage(steps, AT_ONCE);
  timings.push(...results);
  const failed = results.filter((r) => r.code !== 0);
  if (failed.length > 0) {
    console.error(`\nFailed: ${failed.map((r) => r.script).join(', ')}`);
    process.exit(1);
  }
}
console.log(`\nSteps: ${timings.map((r) => `${r.script} ${r.seconds} s`).join(', ')}`);
