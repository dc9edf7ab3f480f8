#!/usr/bin/env node
// `npm run typecheck [-- <workspace folder>…]`: every workspace's `tsconfig.json` (or the ones named)
// checked by TypeScript 7, the native compiler (dev dependency `typescript-native`, an alias of
// `typescript@7`): the same checks as TypeScript 5.9's `tsc` in a fifth of the CPU time
// (docs/decisions/015-typecheck-with-typescript-7.md). One thread per compiler: `npm test` runs the
// typecheck beside lint on 2 cores, and on one thread the six checks took 11 s and 13 CPU-s against
// 14 s and 28 CPU-s with TypeScript 7's default of several. ESLint's type-aware rules and editors keep
// TypeScript 5.9's JavaScript API (`typescript`), which typescript-eslint needs.
//
// The compiler is run by path: both packages name their binary `tsc`, so which one
// `node_modules/.bin/tsc` links to is up to npm.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const tsc = path.join(path.dirname(require.resolve('typescript-native/package.json')), 'bin/tsc');

const { workspaces } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const asked = process.argv.slice(2).map((folder) => path.relative(root, path.resolve(folder)));
const unknown = asked.filter((folder) => !workspaces.includes(folder));
if (unknown.length > 0) {
  console.error(`Not a workspace: ${unknown.join(', ')} (workspaces: ${workspaces.join(', ')})`);
  process.exit(64);
}

const failed = [];
for (const workspace of asked.length > 0 ? asked : workspaces) {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [tsc, '--singleThreaded', '-p', path.join(workspace, 'tsconfig.json')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${workspace}: ${result.status === 0 ? 'no errors' : 'errors'} (${seconds} s)`);
  if (result.status !== 0) failed.push(workspace);
}
if (failed.length > 0) {
  console.error(`Type errors in ${failed.join(', ')}`);
  process.exit(1);
}
