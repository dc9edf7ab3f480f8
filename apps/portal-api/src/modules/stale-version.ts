import { conflict } from '@pa/server-kit/errors';

/**
 * 409 when the record changed since the caller read it: `seen` is the version their edit is based on,
 * `current` the one locked in this transaction. Every edit form of users, roles and permissions sends
 * the version it opened, so two people editing one record never overwrite each other silently.
 */
export function assertSameVersion(
  what: 'user' | 'role' | 'permission',
  seen: number,
  current: number,
): void {
  if (seen === current) return;
  throw conflict(
    `Someone else changed this ${what} since you opened it. Reload it to see their changes, then apply yours again.`,
  );
}
