import { rm } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { QuotaCount } from '../../../modules/sessions/quota';
import type { Owner, SessionParams, SessionRow } from '../../../modules/sessions/state';
import { noteRetryAfter, withRetryAfter } from './common';

/** What a route puts into a new session's folder, measured before anything is written. */
export interface NewSessionFiles {
  /** What the folder may take once its job is done (ADR 019), reserved against the quota. */
  reserved: number;
  /** Fills the folder (links, copies or cut files); runs inside the reservation. */
  fill: () => Promise<void>;
  params: SessionParams;
  file: { originalName: string | null; bytes: number; sourceSessionId: string };
}

/**
 * A new session over files of an earlier one (a rerun, the tickets a liability limit keeps): the
 * user's jobs in flight checked first (429 with Retry-After, before anything is read), `prepare`
 * measures what the folder takes (counting linked bytes on `quota`), then the folder is filled and
 * the job started under one reservation. On any failure the folder is removed.
 */
export async function startNewSession(
  app: FastifyInstance,
  reply: FastifyReply,
  owner: Owner,
  prepare: (dir: string, quota: QuotaCount) => Promise<NewSessionFiles>,
): Promise<{ id: string; row: SessionRow }> {
  const { jobs, memory } = app.power7.sessions;
  const id = uuidv7();
  const dir = memory.dirOf(id);
  const quota = await app.power7.quota.begin(owner, 'rerun').catch(withRetryAfter(reply));
  try {
    const files = await prepare(dir, quota);
    const row = await quota.reserve(files.reserved, async () => {
      await files.fill();
      return jobs.start(id, owner, files.params, { ...files.file, reservedBytes: files.reserved });
    });
    return { id, row };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    noteRetryAfter(reply, error);
    throw error;
  } finally {
    quota.end();
  }
}
