import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEmptyCluster } from '@pa/server-kit/testing/empty-pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite folder created and migrated once for the run, closed: copied for each test app. */
    power7PgliteTemplate: string;
  }
}

/**
 * Creates one PGlite cluster for the whole run, kept empty (`emptyPgliteCluster`: the services the
 * process tests start copy it), and a copy of it migrated. Creating a cluster (PGlite's initdb, in
 * WebAssembly) costs ~20× opening an existing one (76 s against 3.7 s at load 30; ~5 CPU-s against
 * 0.35 when idle), and most test apps and started services need one.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'p7-template-'));
  const blank = join(dir, 'blank');
  await makeEmptyCluster(blank);
  await cp(blank, join(dir, 'power7-db'), { recursive: true });
  const opened = await openDatabase({ DATA_DIR: dir });
  await opened.close();
  project.provide('power7PgliteTemplate', join(dir, 'power7-db'));
  project.provide('emptyPgliteCluster', blank);
  return () => rm(dir, { recursive: true, force: true });
}
