import { BookTotals, bookDraws } from '../core/book';
import type { BookTuning, DrawTotals } from '../core/book-types';
import { seeTotals, type TotalsSeen, writeTotals } from '../core/book-watch';
import { EngineError } from '../core/errors';
import { formatCombo, type Payouts, PICK } from '../core/model';
import { deriveWeights, unitsToAmount } from '../core/weights';
import { analyzeTickets } from './analyze';
import { totalsLessRefused } from './book-opening';

/**
 * A live book's totals over the engine (issue #41 part 4, ADR 024): opened by one analysis of the
 * book's tickets (or, made from a session, the session's totals less those of the fewer tickets its
 * limit refused: their tables and one pass over the draws, `book-opening.ts`), folded by one
 * analysis of the tickets sold since the last fold (their 3- and 4-match payouts only), and the
 * ticket-by-ticket check and sale of `core/book.ts` in currency.
 */
export interface LiveBookGame {
  pool: number;
  payouts: Payouts;
  /** The limit in currency. */
  limit: number;
  /** Worker threads of the analyses (default: one per core). */
  workers?: number;
  tuning?: Partial<BookTuning>;
}

/**
 * What a session already holds when a book opens from it: every draw's total with all its tickets
 * (units of `unit`), and the tickets the limit refused (7 ascending numbers each). The book's
 * tickets are the others, so their totals are these less the refused tickets' — fewer tickets than
 * the book's whenever the limit refuses less than half.
 */
export interface BookSeed {
  totals: Float64Array;
  unit: number;
  refused: Uint8Array;
}

/** One ticket's answer: accepted, or refused with the draw it would push highest past the limit. */
export type TicketCheck = { accepted: true } | { accepted: false; draw: string; wouldBe: number };

export class LiveBookTotals {
  /** Folds since the book was opened (a benchmark states the sales rate through one). */
  folds = 0;

  private constructor(
    private readonly game: LiveBookGame,
    private readonly unit: number,
    private readonly totals: BookTotals,
  ) {}

  /**
   * Every draw's total with `tickets` (7 ascending numbers each): one analysis of them, or with a
   * `seed` from the session they came from, the session's totals less the fewer tickets it refused.
   */
  static async open(
    game: LiveBookGame,
    tickets: Uint8Array,
    seed?: BookSeed,
  ): Promise<LiveBookTotals> {
    const count = tickets.length / PICK;
    const { unit, w } = deriveWeights(game.payouts, { type: 'fixed', budget: 0 }, count);
    const limit = Math.floor(Math.round(game.limit * 100) / unit);
    const draws = bookDraws(game.pool);
    const bookGame = { pool: game.pool, w, limit };
    const from = BookTotals.seenFrom(bookGame, game.tuning);
    // every total is ≤ the limit once the book is open: 4 bytes a draw while the limit fits
    const fresh = (): DrawTotals =>
      limit < 2 ** 32 ? new Uint32Array(draws) : new Float64Array(draws);
    const analysisOf = (of: Uint8Array) =>
      analyzeTickets(of, of.length / PICK, {
        pool: game.pool,
        payouts: game.payouts,
        budget: { type: 'fixed', budget: 0 },
        keepDraws: false,
        sumDistribution: false,
        ...(game.workers !== undefined ? { workers: game.workers } : {}),
      });
    // the totals written in one pass that also finds the worst draw and the draws near the limit,
    // from which the watch is chosen (`TotalsSeen`)
    let base: DrawTotals;
    let seen: TotalsSeen;
    if (
      seed &&
      seed.unit === unit &&
      seed.totals.length === draws &&
      seed.refused.length < tickets.length
    ) {
      // the session's totals less the refused tickets' (same payouts, so the same unit), written
      // by one pass over the draws on the workers (the book holds 8 bytes a draw then, until its
      // first fold writes 4)
      if (seed.refused.length > 0) {
        ({ totals: base, seen } = await totalsLessRefused(game, seed.totals, seed.refused, from));
      } else {
        base = fresh();
        seen = writeTotals(base, seed.totals, undefined, 0, from);
      }
    } else {
      base = fresh();
      seen =
        count > 0
          ? writeTotals(base, (await analysisOf(tickets)).distribution.totals, undefined, 0, from)
          : seeTotals(base, from);
    }
    if (seen.top > limit) {
      throw new EngineError(
        'INVALID_PARAMS',
        'These tickets already take a draw past the limit.',
        'limit',
      );
    }
    return new LiveBookTotals(game, unit, new BookTotals(bookGame, base, game.tuning, seen));
  }

  /** Checks one ticket (7 ascending numbers) against every draw, and keeps it when accepted and `sell`. */
  async offer(ticket: Uint8Array, sell: boolean): Promise<TicketCheck> {
    const breach = this.totals.check(ticket);
    if (breach) {
      return {
        accepted: false,
        draw: formatCombo(breach.numbers),
        wouldBe: unitsToAmount(breach.total, this.unit),
      };
    }
    if (sell) await this.add(ticket);
    return { accepted: true };
  }

  /**
   * Checks tickets in order as if each accepted one were sold before the next, keeping none: one
   * ticket is checked as it stands; several are tried on a copy of the totals.
   */
  async trial(tickets: Uint8Array[]): Promise<TicketCheck[]> {
    if (tickets.length === 1) return [await this.offer(tickets[0]!, false)];
    if (this.totals.canTry(tickets.length)) {
      // added and taken out again, no fold in between: no copy of the totals
      const results: TicketCheck[] = [];
      const added: Uint8Array[] = [];
      try {
        for (const t of tickets) {
          const check = await this.offer(t, false);
          if (check.accepted) {
            this.totals.add(t);
            added.push(t);
          }
          results.push(check);
        }
      } finally {
        for (let k = added.length - 1; k >= 0; k--) this.totals.remove(added[k]!);
      }
      return results;
    }
    const copy = new LiveBookTotals(this.game, this.unit, this.totals.clone());
    const results: TicketCheck[] = [];
    for (const t of tickets) results.push(await copy.offer(t, true));
    return results;
  }

  /** Adds a ticket already accepted (a sale read back from the log), folding when one is due. */
  async add(ticket: Uint8Array): Promise<void> {
    this.totals.add(ticket);
    if (this.totals.foldDue) await this.fold();
  }

  /** The draw that pays most, in currency. */
  worst(): { combo: string; totalPayout: number } {
    const worst = this.totals.worst();
    return {
      combo: formatCombo(worst.numbers),
      totalPayout: unitsToAmount(worst.total, this.unit),
    };
  }

  /** The watch and fold figures (`BookTotals.shape`). */
  get shape() {
    return this.totals.shape;
  }

  /** Bytes held, roughly (the figure `docs/benchmarks` states per open book). */
  get bytes(): number {
    return this.totals.bytes;
  }

  /** The deferred payouts (3- and 4-match, and 5- when deferred) added to every draw: one analysis of the tickets since the last fold. */
  private async fold(): Promise<void> {
    const pending = this.totals.pendingFold;
    const count = pending.length / PICK;
    const { payouts, pool } = this.game;
    const deferred = this.totals.deferredMatches;
    const lowOnly: Payouts = {
      3: payouts[3],
      4: payouts[4],
      5: deferred.includes(5) ? payouts[5] : 0,
      6: 0,
      7: 0,
    };
    const res = await analyzeTickets(pending, count, {
      pool,
      payouts: lowOnly,
      budget: { type: 'fixed', budget: 0 },
      keepDraws: false,
      sumDistribution: false,
      ...(this.game.workers !== undefined ? { workers: this.game.workers } : {}),
    });
    // that analysis counts in its own unit (a multiple of the book's)
    this.totals.foldIn(res.distribution.totals, res.weights.unit / this.unit);
    this.folds++;
  }
}
