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

/** The worker's one empty in-memory cluster, made on first use. */
const emptyCluster = () => (cluster ??= PGlite.create());

/**
 * A new, empty in-memory PGlite for a test: a clone of one cluster made once per test worker. Making a
 * cluster runs PGlite's initdb in WebAssembly (~5.5 CPU-s); a clone costs ~1.
 */
export async function emptyPglite(): Promise<PGlite> {
  return (await emptyCluster()).clone() as Promise<PGlite>;
}

/** Makes an empty PGlite cluster in `folder` (PGlite's initdb): for a global set-up to provide. */
export async function makeEmptyCluster(folder: string): Promise<void> {
  await (await PGlite.create({ dataDir: folder })).close();
}

/**
 * Copies an empty cluster to `folder`, unless a database is there already: a service or the admin CLI
 * that opens its database there starts as on a first start (migrations, the demo's seed) without
 * PGlite's initdb. The copy comes from the run's cluster when the project's global set-up provides
 * one (`emptyPgliteCluster`), else from the worker's in-memory one, written to disk once per worker.
 */
export async function copyEmptyCluster(folder: string): Promise<void> {
  if (fs.existsSync(folder)) return;
  const source = inject('emptyPgliteCluster') ?? (await workerClusterFolder());
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
