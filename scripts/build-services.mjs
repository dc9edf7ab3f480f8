#!/usr/bin/env node
// Compiles the two services and the Power 7 CLI to plain JavaScript (issue #17): `npm start` and
// `npm run power7` run these bundles with `node`, instead of compiling TypeScript at every start and
// in every worker thread. In-process tests and `tsx` run from the sources; the tests that start a
// service or the CLI as a process start these bundles (ADR 016, docs/decisions/).
//
// One esbuild bundle per entry point. The workspace packages (@pa/*, TypeScript sources) are bundled
// in; npm dependencies stay external and load from node_modules as they do under tsx. The sources find
// files next to them through `import.meta.dirname` / `import.meta.url` (migrations, the password
// list); each file's own value is kept, computed from the bundle's location, so a bundle
// behaves exactly as its sources do (and the repository can be moved).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

/**
 * What is built: entry point → bundle (ESM); `scans`: the engine's workers beside it (below); `split`:
 * each dynamic `import()` becomes a chunk beside the bundle (`chunk-<hash>.mjs`), loaded only when
 * reached — without it esbuild hoists every npm import of the lazily loaded modules to the bundle's
 * top, and the services could not open their database while Fastify and the routes load (server.ts).
 */
export const SERVICE_BUILDS = [
  { entry: 'apps/portal-api/src/server.ts', out: 'apps/portal-api/dist/server.mjs', split: true },
  // `npm run admin` (scripts/admin.mjs): one file (the server's chunks are dropped at each build)
  { entry: 'apps/portal-api/src/cli/admin.ts', out: 'apps/portal-api/dist/admin.mjs' },
  {
    entry: 'apps/power7-api/src/server.ts',
    out: 'apps/power7-api/dist/server.mjs',
    scans: true,
    split: true,
  },
  {
    entry: 'packages/power7-engine/src/cli/bin.ts',
    out: 'packages/power7-engine/dist/cli.mjs',
    scans: true,
    // the entry starts the scan workers before the rest of the CLI (a chunk) is loaded (issue #42)
    split: true,
  },
];
/**
 * The engine's worker threads, compiled beside each bundle that analyses as `<name>-worker.cjs` (plain
 * CommonJS: a thread needs no loader); `workerEntry` (packages/power7-engine/src/parallel/
 * worker-entry.ts) starts them from there. npm dependencies stay external (ExcelJS loads from
 * node_modules when an XLSX comes).
 */
const ENGINE_WORKERS = ['scan', 'winners', 'xlsx'].map((name) => ({
  entry: `packages/power7-engine/src/parallel/${name}-worker.ts`,
  out: `${name}-worker.cjs`,
}));

/** The sources a build depends on: a bundle older than any of them is stale. */
export const SERVICE_SOURCES = [
  'apps/portal-api/src',
  'apps/portal-api/drizzle',
  'apps/power7-api/src',
  'apps/power7-api/drizzle',
  'packages/contracts/src',
  'packages/server-kit/src',
  'packages/power7-engine/src',
  'package-lock.json',
  'scripts/build-services.mjs',
];

/** The newest modification time of a file or of anything in a folder (0 when missing). */
export function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when a bundle is missing or older than a source it is built from. */
export function servicesStale() {
  const builtAt = Math.min(...SERVICE_BUILDS.map(({ out }) => newestMtime(path.join(root, out))));
  const sourcesAt = Math.max(...SERVICE_SOURCES.map((p) => newestMtime(path.join(root, p))));
  return builtAt < sourcesAt;
}

/**
 * Keeps bare imports of npm packages external (they load from node_modules) and bundles the
 * workspace's own packages, whose exports point at TypeScript sources.
 */
const externalDependencies = {
  name: 'external-dependencies',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@pa/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Rewrites `import.meta.dirname` / `.url` of each source file to that file's own location. */
function sourceLocations(outDir) {
  return {
    name: 'source-locations',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        if (!text.includes('import.meta.')) return undefined;
        const fromBundle = (p) =>
          JSON.stringify(path.relative(outDir, p).split(path.sep).join('/'));
        const contents = text
          .replaceAll('import.meta.dirname', `__paFrom(${fromBundle(path.dirname(args.path))})`)
          .replaceAll('import.meta.url', `__paUrl(${fromBundle(args.path)})`);
        return { contents, loader: 'ts' };
      });
    },
  };
}

// Defines what the rewritten sources call, relative to where the bundle lies at run time.
const banner = `import { dirname as __paDirname, resolve as __paResolve } from 'node:path';
import { fileURLToPath as __paToPath, pathToFileURL as __paToUrl } from 'node:url';
const __paBundleDir = __paDirname(__paToPath(import.meta.url));
const __paFrom = (relative) => __paResolve(__paBundleDir, relative);
const __paUrl = (relative) => __paToUrl(__paFrom(relative)).href;
const __PA_WORKERS_DIR__ = __paBundleDir;`;

export async function buildServices() {
  const started = performance.now();
  // loaded here, not at the top: `npm start` imports this file and usually has nothing to build
  const esbuild = await import('esbuild');
  await Promise.all(
    SERVICE_BUILDS.map(async ({ entry, out, scans, split }) => {
      const outfile = path.join(root, out);
      const outDir = path.dirname(outfile);
      // the chunks beside the bundle, named after a hash of their content: drop the last build's
      if (split && fs.existsSync(outDir))
        for (const name of fs.readdirSync(outDir))
          if (/^chunk-.*\.mjs(\.map)?$/.test(name)) fs.rmSync(path.join(outDir, name));
      await esbuild.build({
        entryPoints: [path.join(root, entry)],
        ...(split
          ? {
              outdir: outDir,
              splitting: true,
              entryNames: path.basename(out, '.mjs'),
              chunkNames: 'chunk-[hash]',
              outExtension: { '.js': '.mjs' },
            }
          : { outfile }),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: 'linked',
        banner: { js: banner },
        plugins: [externalDependencies, sourceLocations(outDir)],
        logLevel: 'warning',
      });
      if (out.endsWith('cli.mjs')) await fs.promises.chmod(outfile, 0o755); // `npx power7`
      if (!scans) return;
      await Promise.all(
        ENGINE_WORKERS.map(({ entry, out }) =>
          esbuild.build({
            entryPoints: [path.join(root, entry)],
            outfile: path.join(outDir, out),
            bundle: true,
            platform: 'node',
            format: 'cjs',
            target: 'node20',
            plugins: [externalDependencies],
            logLevel: 'warning',
          }),
        ),
      );
    }),
  );
  return performance.now() - started;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const ms = await buildServices();
  console.log(`Built the services and the CLI in ${Math.round(ms)} ms.`);
}
