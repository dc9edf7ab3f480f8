#!/usr/bin/env node
// `npm run pglite:empty`: one empty PGlite cluster (PGlite's initdb, ~5 CPU-s) in the folder that
// `PA_EMPTY_PGLITE` names, made once by `npm run validate` before the test stages. The Vitest
// projects (server-kit's testing/empty-pglite.ts) and the browser suite's products
// (apps/web/playwright.config.ts) copy it instead of each running initdb again; without the variable
// each makes its own, as before.
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

const folder = process.env.PA_EMPTY_PGLITE;
if (!folder) {
  console.error('PA_EMPTY_PGLITE names no folder.');
  process.exit(1);
}
if (!fs.existsSync(`${folder}/PG_VERSION`)) {
  fs.rmSync(folder, { recursive: true, force: true });
  await (await PGlite.create({ dataDir: folder })).close();
}
console.log(`An empty PGlite cluster for the tests in ${folder}.`);
