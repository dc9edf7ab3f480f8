#!/usr/bin/env node
// Docs that cannot drift (issue #44): every repository path a document names in backticks, and every
// relative link, must exist. Run by `npm run validate` (`npm run check:docs`), which prints each
// missing path with its document and line.
//
// Documents: README.md, docs/**/*.md and the workspaces' READMEs. A backticked text counts as a
// repository path when it looks like one: no spaces, no placeholder or glob (`<id>`, `*`, `{a,b}`,
// `$X`, `…`), not a URL or a route (`/api/…`, any leading `/`), not under a setting
// (`DATA_DIR/outbox`); it holds a `/` and ends in `/` or in a file extension
// (`apps/web/src/main.tsx`, `modules/mfa/`); and its first folder is a folder of the repository
// (`keys/` or `run/` inside the data folder are not). A trailing `:12` or `:12-30` (a line) and
// `#anchor` are dropped. It exists when it is found from the repository root or the document's
// folder, or when a file or folder of the repository ends with it (docs name `modules/mfa/` or
// `risk/` inside the folder their section maps; `contracts/csv.ts` is then still caught, since
// the file is `packages/contracts/src/csv.ts`). Relative links must resolve from the document's
// folder. Only files git tracks or would track count: build and run output (`dist/`) is not there
// in a fresh clone. A folder of the running product is named under its setting
// (`DATA_DIR/power7/`), so that it is not taken for one of the repository.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The documents to check, relative to the root. */
function documents() {
  const docs = ['README.md'];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) docs.push(rel);
    }
  };
  walk('docs');
  for (const group of ['apps', 'packages']) {
    for (const name of fs.readdirSync(path.join(root, group))) {
      const readme = path.posix.join(group, name, 'README.md');
      if (fs.existsSync(path.join(root, readme))) docs.push(readme);
    }
  }
  return docs;
}

/** The repository's files and folders (folders with a trailing `/`), as git sees them. */
function repositoryPaths() {
  const files = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  )
    .split('\0')
    .filter(Boolean);
  const paths = new Set(files);
  for (const file of files) {
    for (let i = file.indexOf('/'); i !== -1; i = file.indexOf('/', i + 1)) {
      paths.add(file.slice(0, i + 1));
    }
  }
  return paths;
}

/** The path a backticked text names, or null when it does not look like a repository path. */
function pathIn(text) {
  let t = text.trim();
  if (/[\s<>*{}$…?=,;|'"()[\]\\]/.test(t)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith('/') || t.startsWith('~')) return null;
  if (t.startsWith('@')) return null; // a package specifier, checked by the type checker
  t = t
    .replace(/#.*$/, '')
    .replace(/:\d+(-\d+)?$/, '')
    .replace(/^(\.\/)+/, '');
  if (!t.includes('/')) return null;
  // A setting's value as a folder (`DATA_DIR/outbox`, `STORAGE_DIR/books/`).
  if (/^[A-Z][A-Z0-9_]*\//.test(t)) return null;
  if (!(t.endsWith('/') || /\.[A-Za-z][A-Za-z0-9]*$/.test(t))) return null;
  return t;
}

/** The relative link targets and backticked paths of one document, with their lines. */
function namedPaths(markdown) {
  const found = [];
  let fenced = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const match of line.matchAll(/(`+)([^`]+?)\1/g)) {
      const named = pathIn(match[2]);
      if (named) found.push({ line: i + 1, path: named, link: false });
    }
    // Links outside code: [text](target), relative targets only.
    const prose = line.replace(/(`+)[^`]+?\1/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1].replace(/#.*$/, '');
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
      found.push({ line: i + 1, path: decodeURI(target), link: true });
    }
  });
  return found;
}

function missingPaths() {
  const paths = repositoryPaths();
  const folderNames = new Set();
  for (const p of paths) if (p.endsWith('/')) folderNames.add(path.posix.basename(p));
  const exists = (p) => paths.has(p) || paths.has(`${p}/`);
  const endsWith = (tail) => {
    const suffix = `/${tail}`;
    for (const p of paths)
      if (p.endsWith(suffix) || (!tail.endsWith('/') && p.endsWith(`${suffix}/`))) return true;
    return false;
  };
  const missing = [];
  for (const doc of documents()) {
    const dir = path.posix.dirname(doc);
    for (const named of namedPaths(fs.readFileSync(path.join(root, doc), 'utf8'))) {
      const fromDoc = path.posix.normalize(path.posix.join(dir, named.path));
      if (named.link) {
        if (!exists(fromDoc.replace(/\/$/, ''))) missing.push({ doc, ...named });
        continue;
      }
      const first = named.path.replace(/^(\.\.\/)+/, '').split('/')[0];
      const fromRoot = path.posix.normalize(named.path).replace(/\/$/, '');
      if (!folderNames.has(first) && !exists(first)) continue;
      const tail = named.path.replace(/^(\.\.\/)+/, '');
      if (exists(fromRoot) || exists(fromDoc.replace(/\/$/, '')) || endsWith(tail)) continue;
      missing.push({ doc, ...named, fromRoot });
    }
  }
  // Build and run output (`apps/portal-api/dist/server.mjs`): ignored by git, absent from a clone.
  const ignored = ignoredByGit(missing.filter((m) => !m.link).map((m) => m.fromRoot));
  return missing.filter((m) => m.link || !ignored.has(m.fromRoot));
}

function ignoredByGit(paths) {
  if (paths.length === 0) return new Set();
  try {
    const out = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], {
      cwd: root,
      input: paths.join('\n'),
      encoding: 'utf8',
    });
    return new Set(out.split('\n').filter(Boolean));
  } catch (error) {
    if (error.status === 1) return new Set(); // none is ignored
    throw error;
  }
}

const missing = missingPaths();
for (const m of missing) {
  console.error(`${m.doc}:${m.line}: ${m.link ? 'link to' : 'path'} \`${m.path}\` does not exist`);
}
if (missing.length > 0) {
  console.error(
    `\n${missing.length} path(s) named in the docs do not exist: fix the path or the doc ` +
      '(a folder of the running product goes under its setting: `DATA_DIR/power7/`).',
  );
  process.exit(1);
}
console.log(`Every repository path named in ${documents().length} documents exists.`);
