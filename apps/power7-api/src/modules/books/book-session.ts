import { writeBookSession } from '@pa/power7-engine/session-store';
import { startNewSession, type NewSessionDeps } from '../sessions/new-session';
import { resultBytesBound } from '../sessions/output-bound';
import type { Owner, SessionParams, SessionRow } from '../sessions/state';
import type { BookService } from './service';

/**
 * `POST /api/power7/books/:id/session/`: a new session of the book's tickets as sold (the session's
 * accepted tickets, then every sale), named after the book.
 */
export async function startBookSession(
  deps: NewSessionDeps,
  books: BookService,
  owner: Owner,
  bookId: string,
): Promise<{ id: string; row: SessionRow; book: { id: string; session: string } }> {
  const { dir: bookDir, meta, sales } = await books.contents(owner, bookId);
  const params = meta.params as unknown as SessionParams;
  const kept = meta.initialTickets + sales.length;
  const { id, row } = await startNewSession(deps, owner, async (dir) => ({
    // the rows copied with the sales appended (~60 bytes a row), the tickets and row index, and
    // the results at their largest (ADR 019)
    reserved:
      83 * kept + resultBytesBound({ pool: meta.pool, tickets: kept, params, countsStored: false }),
    fill: () => writeBookSession(bookDir, sales, dir).then(() => undefined),
    params,
    file: { originalName: meta.name, bytes: 0, sourceSessionId: meta.session },
  }));
  const named = await deps.sessions.edit(row, {
    name: `${meta.name} — as sold (${kept.toLocaleString('en')} tickets)`,
  });
  return { id, row: named, book: { id: meta.id, session: meta.session } };
}
