import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * PGlite in a data folder, shared by both services: PGlite allows ONE process per folder (two corrupt
 * it), so a lock file beside the folder (`<folder>.lock`) holds the owner's pid.
 */

/**
 * V8's baseline WebAssembly code only (`--liftoff-only`) for the rest of this process. Otherwise V8
 * optimises PGlite's wasm in background threads at every start: ~1.4 of the ~3 CPU-s a portal start
 * takes (docs/benchmarks/test-suite.md, session 23; first measured in speed-second-round.md §3), for
 * queries that run as fast on baseline code (full scans of a 20k-row table 1.4–2× slower; the
 * services' tables are small). Each service's entry and the admin command call it before PGlite
 * compiles, so every way of starting them gets it: `npm start`, the compiled files run directly, the
 * process tests (~20 compiled service starts a run).
 */
export function preferBaselineWasm(): void {
  v8.setFlagsFromString('--liftoff-only');
}

/** Thrown when another live process holds the PGlite data folder. */
export class DataFolderHeldError extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(
      `The database folder ${folder} is in use by process ${pid} (PGlite allows one process per folder). ` +
        'Stop that process first, or point DATABASE_URL at a PostgreSQL server.',
    );
    this.name = 'DataFolderHeldError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding a PGlite folder, or null when it is free (a stale lock of a dead process is free). */
export function folderHolder(folder: string): number | null {
  try {
    const pid = Number(fs.readFileSync(`${folder}.lock`, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the folder for this process and returns the function that gives it back. A lock left by a
 * dead process (a crash, kill -9) is taken over; a live holder throws DataFolderHeldError.
 */
export function lockFolder(folder: string): () => void {
  const lockFile = `${folder}.lock`;
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockFile, 'utf8').trim() === String(process.pid)) fs.rmSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = folderHolder(folder);
      if (holder !== null) throw new DataFolderHeldError(folder, holder);
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${folder}.`);
}

/**
 * Locks `folder` and opens PGlite in it. `close()` closes the database (if still open) and releases
 * the folder; a failed open releases it too.
 */
export async function openPglite(
  folder: string,
  options: Omit<PGliteOptions, 'dataDir'> = {},
): Promise<{ client: PGlite; close(): Promise<void> }> {
  const unlock = lockFolder(folder);
  let client: PGlite;
  try {
    client = await PGlite.create({ ...options, dataDir: folder });
  } catch (error) {
    unlock();
    throw error;
  }
  return {
    client,
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        unlock();
      }
    },
  };
}
