import { rm } from 'node:fs/promises';
import { v7 as uuidv7 } from 'uuid';
import { writeTicketSubset } from '@pa/power7-engine/session-store';
import { resultBytesBound } from './output-bound';
import type { QuotaCount, StorageQuota } from './quota';
import type { Power7Sessions } from './service';
import type { Owner, SessionParams, SessionRow } from './state';

/** What a new session over an earlier one's files needs: the sessions and the storage quota. */
export interface NewSessionDeps {
  sessions: Power7Sessions;
  quota: StorageQuota;
}

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
 * A new session over files of an earlier one (a rerun, the tickets a liability limit keeps, a live
 * book as sold): the user's jobs in flight checked first (429, before anything is read; the route
 * adds its Retry-After), `prepare` measures what the folder takes (counting linked bytes on
 * `quota`), then the folder is filled and the job started under one reservation. On any failure the
 * folder is removed.
 */
export async function startNewSession(
  deps: NewSessionDeps,
  owner: Owner,
  prepare: (dir: string, quota: QuotaCount) => Promise<NewSessionFiles>,
): Promise<{ id: string; row: SessionRow }> {
  const { jobs, memory } = deps.sessions;
  const id = uuidv7();
  const dir = memory.dirOf(id);
  const quota = await deps.quota.begin(owner, 'rerun');
  try {
    const files = await prepare(dir, quota);
    const row = await quota.reserve(files.reserved, async () => {
      await files.fill();
      return jobs.start(id, owner, files.params, { ...files.file, reservedBytes: files.reserved });
    });
    return { id, row };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  } finally {
    quota.end();
  }
}

/**
 * `POST /api/power7/sessions/:id/limit/apply/`: a new session of the tickets a liability limit keeps
 * (in sales order, or by the cap per combination), named after the limit.
 */
export async function startAcceptedSession(
  deps: NewSessionDeps,
  owner: Owner,
  sourceId: string,
  limit: number,
  mode: 'sales-order' | 'cap',
): Promise<{ id: string; row: SessionRow; source: SessionRow }> {
  const { queries, memory } = deps.sessions;
  const source = await queries.find(owner, sourceId);
  const keep = await (await queries.open(source)).acceptedMask(limit, mode);
  const { id, row } = await startNewSession(deps, owner, async (dir) => {
    const kept = keep.reduce((n, k) => n + k, 0);
    return {
      // the cut tickets and row index, and the results at their largest (ADR 019)
      reserved:
        23 * kept +
        resultBytesBound({
          pool: source.params.pool_size,
          tickets: kept,
          params: source.params,
          countsStored: false,
        }),
      fill: () => writeTicketSubset(memory.dirOf(source.id), dir, keep).then(() => undefined),
      params: source.params,
      file: {
        originalName: source.originalName,
        bytes: source.fileBytes,
        sourceSessionId: source.sourceSessionId ?? source.id,
      },
    };
  });
  const name = `Accepted under the limit ${limit.toLocaleString('en')} (${mode === 'cap' ? 'cap per combination' : 'sales order'})`;
  return { id, row: await deps.sessions.edit(row, { name }), source };
}
