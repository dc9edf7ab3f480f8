import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * A counter of committed database writes of this process: the auth cache (modules/auth/auth-cache)
 * keeps an entry only while the generation it was read at is still current. It is bumped by the
 * database client itself (`trackWrites`), after every write statement outside a transaction and after
 * every transaction ends, so no write path can forget it (ADR 004).
 */
export class DataChanges {
  #generation = 0;
  readonly #listeners = new Set<() => void>();
  get generation() {
    return this.#generation;
  }
  bump() {
    this.#generation++;
    for (const listener of this.#listeners) listener();
  }
  /** Calls `listener` after every bump (the PGlite maintenance schedules itself from it). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/**
 * Writes that cannot change who may do what (audit trail, mail outbox, refresh tokens of a sign-in,
 * reset tokens, and the auth plugin's own "last used" touch of a sign-in): these do not bump the
 * generation when they run outside a transaction. Anything else that is not a plain read does.
 */
const NEUTRAL_WRITE =
  /^\s*(insert\s+into\s+"(audit_events|mail_outbox|refresh_tokens|password_reset_tokens)"|update\s+"sign_ins"\s+set\s+"last_used_at"\s*=\s*\$1\s+where)/i;
const READ = /^\s*(select|show|explain|set|listen|vacuum|analyze)\b/i;
const TRANSACTION_END = /^\s*(commit|rollback|end|abort)\b/i;
const TRANSACTION_START = /^\s*(begin|start\s+transaction)\b/i;

export type StatementKind = 'read' | 'write' | 'begin' | 'end';

/** What a statement does, for the change counter (exported for its unit test). */
export function statementKind(text: string): StatementKind {
  if (TRANSACTION_START.test(text)) return 'begin';
  if (TRANSACTION_END.test(text)) return 'end';
  // A locking read (`for update`) changes nothing by itself; a neutral write nothing the cache holds.
  return READ.test(text) || NEUTRAL_WRITE.test(text) ? 'read' : 'write';
}

const textOf = (query: unknown): string =>
  typeof query === 'string'
    ? query
    : typeof query === 'object' && query && 'text' in query && typeof query.text === 'string'
      ? query.text
      : '';

/**
 * PGlite: every `query`/`exec` outside a transaction that writes bumps after it finished, and every
 * `transaction` bumps after it ended (committed or not): inside one, PGlite runs the statements on the
 * transaction object, and a transaction is how this code writes.
 */
export function trackPgliteWrites(client: PGlite, changes: DataChanges): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  const after = <T>(kind: StatementKind, work: Promise<T>) =>
    kind === 'read'
      ? work
      : work.finally(() => {
          changes.bump();
        });
  client.query = ((text: string, ...rest: unknown[]) =>
    after(statementKind(text), query(text, ...(rest as [])))) as PGlite['query'];
  client.exec = ((text: string, ...rest: unknown[]) =>
    after(statementKind(text), exec(text, ...(rest as [])))) as PGlite['exec'];
  client.transaction = ((callback: Parameters<PGlite['transaction']>[0]) =>
    after('write', transaction(callback))) as PGlite['transaction'];
}

/**
 * node-postgres: every connection of the pool counts its own statements: a write outside a
 * transaction bumps when it finished; inside one (begin … commit/rollback) the bump comes when the
 * transaction ended, i.e. after the commit, so a reader can never cache what a transaction is about
 * to change under a generation that outlives it.
 */
export function trackPoolWrites(pool: pg.Pool, changes: DataChanges): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    let inTransaction = false;
    let dirty = false;
    const finish = (kind: StatementKind) => {
      if (kind === 'begin') inTransaction = true;
      else if (kind === 'end') {
        inTransaction = false;
        if (dirty) changes.bump();
        dirty = false;
      } else if (kind === 'write' && !inTransaction) changes.bump();
    };
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const kind = statementKind(textOf(args[0]));
      if (kind === 'begin') inTransaction = true;
      if (kind === 'write' && inTransaction) dirty = true;
      const callback = typeof args.at(-1) === 'function' ? args.pop() : undefined;
      if (callback) {
        return query(...args, (error: unknown, result: unknown) => {
          finish(kind);
          (callback as (e: unknown, r: unknown) => void)(error, result);
        });
      }
      const result = query(...args);
      if (result && typeof (result as Promise<unknown>).finally === 'function') {
        return (result as Promise<unknown>).finally(() => finish(kind));
      }
      finish(kind);
      return result;
    };
  });
}
