import type { BookResult, BookSellAnswer, BookView } from '@pa/contracts/power7-books';
import { formatCount, formatPercent } from '../../lib/format';
import { money } from '../../lib/money';
import { headroomOf, matchedIn } from '../../liability/lib/limit-text';

/** The live book's words (issue #41 part 5): the gauge, an answer's summary, one ticket's answer. */

/** The head-room gauge: the share of the limit the worst draw uses, and the same in words. */
export function gaugeOf(book: Pick<BookView, 'limit' | 'worst' | 'headroom' | 'currency'>) {
  const { used } = headroomOf(book.limit, book.worst.totalPayout);
  const m = (v: number) => money(v, book.currency);
  const words =
    book.headroom <= 0
      ? `No head-room left: the worst draw pays the whole limit of ${m(book.limit)}, so a ticket that wins anything on it is refused.`
      : `Head-room ${m(book.headroom)}: the worst draw pays ${m(book.worst.totalPayout)} of the ${m(book.limit)} limit (${formatPercent(used)} used).`;
  return { used, percent: Math.round(used * 1000) / 10, words };
}

/**
 * What the book answered, in one sentence announced to screen readers: "Sold 3 of 4 tickets; 1
 * refused." or, for a check, "Checked 4 tickets: 3 would be accepted, 1 refused. Nothing was sold."
 */
export function answerSummary(answer: Pick<BookSellAnswer, 'results' | 'dryRun'>): string {
  const total = answer.results.length;
  const accepted = answer.results.filter((r) => r.accepted).length;
  const refused = total - accepted;
  const tickets = (n: number) => `${formatCount(n)} ${n === 1 ? 'ticket' : 'tickets'}`;
  if (answer.dryRun) {
    if (refused === 0) {
      return `Checked ${tickets(total)}: ${total === 1 ? 'it fits' : 'all fit'}. Nothing was sold.`;
    }
    if (accepted === 0) {
      return `Checked ${tickets(total)}: ${total === 1 ? 'it would be' : 'all would be'} refused. Nothing was sold.`;
    }
    return `Checked ${tickets(total)}: ${formatCount(accepted)} would be accepted, ${formatCount(refused)} refused. Nothing was sold.`;
  }
  if (refused === 0) return `Sold ${total === 1 ? 'the ticket' : `all ${tickets(total)}`}.`;
  if (accepted === 0) {
    return `Sold nothing: ${total === 1 ? 'the ticket was' : `all ${tickets(total)} were`} refused.`;
  }
  return `Sold ${formatCount(accepted)} of ${tickets(total)}; ${formatCount(refused)} refused.`;
}

/** One ticket's answer in words: "Sold.", "Fits.", or why it is refused and what it would cost. */
export function resultWords(
  result: BookResult,
  dryRun: boolean,
  book: Pick<BookView, 'limit' | 'currency'>,
): string {
  if (result.accepted) return dryRun ? 'Fits: it can be sold.' : 'Sold.';
  if (!result.draw || result.wouldBe === undefined) return 'Refused.';
  return `Refused: draw ${result.draw} would pay ${money(result.wouldBe, book.currency)}, over the ${money(book.limit, book.currency)} limit.`;
}

/**
 * The winners of a draw in the session the book started from, on the match type the ticket would
 * have had there (the results page; the sold tickets are not in that session).
 */
export function drawLink(session: string, numbers: readonly number[], draw: string): string {
  const params = new URLSearchParams({ session, combo: draw });
  const matches = matchedIn([...numbers], draw).length;
  if (matches >= 3 && matches <= 7) params.set('match', String(matches));
  return `/app/power7/results?${params.toString()}`;
}

/**
 * A fresh idempotency key per request (the service answers a repeated key with its first answer and
 * sells nothing twice). `crypto.randomUUID` needs a secure context; a page served over plain HTTP on
 * a LAN address has only `getRandomValues`, so the same version-4 UUID is built from it there.
 */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** "Ctrl" or "⌘": the modifier the shortcuts use on this machine. */
export const modifierKey = (platform = globalThis.navigator?.platform ?? '') =>
  /mac|iphone|ipad/i.test(platform) ? '⌘' : 'Ctrl';
