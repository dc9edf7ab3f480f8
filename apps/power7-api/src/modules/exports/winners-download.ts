import type { FastifyRequest } from 'fastify';
import type { MatchType } from '@pa/power7-engine/session-store';
import type { AuditLog } from '../audit/audit-log';
import type { Caller } from '../caller';
import type { SessionQueries } from '../sessions/queries';
import type { Owner } from '../sessions/state';
import { ensureFitsOneSheet } from './exports';

/** One winners download: the caller's session (`id`, or their latest), a draw, a match type or all. */
export interface WinnersDownload {
  owner: Owner;
  id: string | undefined;
  combo: string;
  matchType: MatchType | 'all';
  format: 'csv' | 'xlsx';
}

/**
 * The winners CSV stream of a download, once its first chunk is read (so a bad combo is still a
 * 400 and not a broken download); the download is audited then. An XLSX must fit one sheet:
 * counted before anything is sent.
 */
export async function winnersDownload(
  deps: { queries: SessionQueries; audit: AuditLog },
  request: FastifyRequest,
  caller: Caller,
  { owner, id, combo, matchType, format }: WinnersDownload,
) {
  const row = await deps.queries.find(owner, id);
  const session = await deps.queries.open(row);
  if (format === 'xlsx') {
    // the rows must fit one sheet: counted before anything is sent (the walks are kept for the file)
    const types = matchType === 'all' ? ([3, 4, 5, 6, 7] as const) : [matchType];
    let rows = 0;
    for (const m of types) rows += (await session.winners(combo, m, 1, 1)).total;
    ensureFitsOneSheet(rows);
  }
  // written on the winners threads, as bytes (the event loop only forwards them)
  const iterable = session.winnersCsvBytes(combo, matchType);
  // the first chunk is read here, so a bad combo is still a 400 and not a broken download
  const iterator = iterable[Symbol.asyncIterator]();
  const first = await iterator.next();
  try {
    await deps.audit.record(request, caller, 'power7.download', row.id, { combo, matchType });
  } catch (error) {
    // not audited, not sent: the engine's file handle is closed here
    await iterator.return?.();
    throw error;
  }
  async function* rest() {
    try {
      if (first.done) return;
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // a client that hangs up mid-download still closes the engine's file handle
      await iterator.return?.();
    }
  }
  return { row, stream: rest() };
}
