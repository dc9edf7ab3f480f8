import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

let cluster: Promise<PGlite> | undefined;
let clusterFolder: Promise<string> | undefined;

/** The worker's one empty cluster, made on first use. */
const emptyCluster = () => (cluster ??= PGlite.create());

/**
 * A new, empty in-memory PGlite for a test: a clone of one cluster made once per test worker. Making a
 * cluster runs PGlite's initdb in WebAssembly (~5.5 CPU-s); a clone costs ~1.
 */
export async function emptyPglite(): Promise<PGlite> {
  return (await emptyCluster()).clone() as Promise<PGlite>;
}

/**
 * Copies that empty cluster to `folder` (written to disk once per worker): a service or the admin CLI
 * that opens its database there starts as on a first start (migrations, the demo's seed) without
 * PGlite's initdb.
 */
export async function copyEmptyCluster(folder: string): Promise<void> {
  clusterFolder ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-empty-cluster-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const dump = await (await emptyCluster()).dumpDataDir('none');
    await (await PGlite.create({ dataDir: path.join(dir, 'db'), loadDataDir: dump })).close();
    return path.join(dir, 'db');
  })();
  await fs.promises.cp(await clusterFolder, folder, { recursive: true });
}
