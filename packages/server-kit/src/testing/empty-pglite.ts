import { PGlite } from '@electric-sql/pglite';

let cluster: Promise<PGlite> | undefined;

/**
 * A new, empty in-memory PGlite for a test: a clone of one cluster made once per test worker. Making a
 * cluster runs PGlite's initdb in WebAssembly (~5.5 CPU-s); a clone costs ~1.
 */
export async function emptyPglite(): Promise<PGlite> {
  cluster ??= PGlite.create();
  return (await cluster).clone() as Promise<PGlite>;
}
