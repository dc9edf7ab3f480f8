#!/usr/bin/env node
// Folders you can see at once (issue #44, docs/architecture.md): past ~18 files a folder is hiding
// sub-features. Run by `npm run validate` (`npm run check:folders`), which fails naming every folder
// under apps/web/src/features that holds more than MAX source files.
//
// A source file is a `.ts` or `.tsx` file directly in the folder (its sub-folders are counted on their
// own); tests count, since they sit beside the code and are part of what a reader opens the folder
// to. Only files git tracks or would track count.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const FEATURES = 'apps/web/src/features/';
const MAX = 18;

const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', FEATURES],
  { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
)
  .split('\0')
  .filter((file) => /\.tsx?$/.test(file));

const counts = new Map();
for (const file of files) {
  const folder = path.posix.dirname(file);
  counts.set(folder, (counts.get(folder) ?? 0) + 1);
}

const crowded = [...counts]
  .filter(([, count]) => count > MAX)
  .sort(([a], [b]) => a.localeCompare(b));
if (crowded.length > 0) {
  for (const [folder, count] of crowded) {
    console.error(
      `${folder}/ holds ${count} source files (at most ${MAX}): split it into sub-features`,
    );
  }
  process.exit(1);
}
console.log(
  `Every folder under ${FEATURES} holds at most ${MAX} source files (${counts.size} folders).`,
);
