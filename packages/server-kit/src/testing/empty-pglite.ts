import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * An empty PGlite cluster on disk made once for the run by a project's global set-up
     * (`makeEmptyCluster`); `copyEmptyCluster` copies it when the project provides one.
     */
    emptyPgliteCluster?: string;
  }
}

let cluster: Promise<PGlite> | undefined;
let clusterFolder: Promise<string> | undefined;

/**
 * The run's empty cluster on disk when `npm run validate` made one (`PA_EMPTY_PGLITE`,
 * `npm run pglite:empty`): copied or loaded instead of running initdb again in every project and
 * worker (~5 CPU-s each).
 */
function runCluster(): string | undefined {
  const folder = process.env.PA_EMPTY_PGLITE;
  return folder && fs.existsSync(path.join(folder, 'PG_VERSION')) ? folder : undefined;
}

/**
 * The worker's one empty in-memory cluster, made on first use: loaded from the run's cluster (a copy
 * opened once and dumped, ~1 CPU-s), else by initdb.
 */
const emptyCluster = () =>
  (cluster ??= (async () => {
    const folder = runCluster();
    if (!folder) return PGlite.create();
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-empty-copy-'));
    try {
      await fs.promises.cp(folder, copy, { recursive: true });
      const opened = await PGlite.create({ dataDir: copy });
      const dump = await opened.dumpDataDir('none');
      await opened.close();
      return await PGlite.create({ loadDataDir: dump });
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  })());

/**
 * A new, empty in-memory PGlite for a test: a clone of one cluster made once per test worker. Making a
 * cluster runs PGlite's initdb in WebAssembly (~5.5 CPU-s); a clone costs ~1.
 */
export async function emptyPglite(): Promise<PGlite> {
  return (await emptyCluster()).clone() as Promise<PGlite>;
}

/**
 * Makes an empty PGlite cluster in `folder` (PGlite's initdb, or a copy of the run's cluster): for a
 * global set-up to provide.
 */
export async function makeEmptyCluster(folder: string): Promise<void> {
  const made = runCluster();
  if (made) await fs.promises.cp(made, folder, { recursive: true });
  else await (await PGlite.create({ dataDir: folder })).close();
}

/**
 * Copies an empty cluster to `folder`, unless a database is there already: a service or the admin CLI
 * that opens its database there starts as on a first start (migrations, the demo's seed) without
 * PGlite's initdb. The copy comes from the project's cluster when its global set-up provides one
 * (`emptyPgliteCluster`), else from the run's (`PA_EMPTY_PGLITE`), else from the worker's in-memory
 * one, written to disk once per worker.
 */
export async function copyEmptyCluster(folder: string): Promise<void> {
  if (fs.existsSync(folder)) return;
  const source = inject('emptyPgliteCluster') ?? runCluster() ?? (await workerClusterFolder());
  await fs.promises.cp(source, folder, { recursive: true });
}

function workerClusterFolder(): Promise<string> {
  clusterFolder ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-empty-cluster-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const dump = await (await emptyCluster()).dumpDataDir('none');
    await (await PGlite.create({ dataDir: path.join(dir, 'db'), loadDataDir: dump })).close();
    return path.join(dir, 'db');
  })();
  return clusterFolder;
}
