import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BookTotals } from '../src/core/book';
import { ticketArb } from './arbitraries';

/**
 * A live book's checks, sales, folds and worst draw equal the obvious ticket-by-ticket check over
 * every draw: small pools, payouts dense or sparse (a 3/4-match payout of 0 included), limits from
 * tight (every draw near it) to loose, and the watch and fold interval cut small so that every
 * path — watched draws, folds, the walk over every draw — is taken.
 */

function* everyDraw(pool: number, from = 1, picked: number[] = []): Generator<number[]> {
  if (picked.length === 7) {
    yield picked;
    return;
  }
  for (let n = from; n <= pool - (6 - picked.length); n++)
    yield* everyDraw(pool, n + 1, [...picked, n]);
}

const lexLess = (a: number[], b: number[]) => {
  for (let i = 0; i < 7; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
};

class NaiveBook {
  readonly draws: number[][];
  readonly totals: number[];
  constructor(
    pool: number,
    private readonly w: number[],
    private readonly limit: number,
  ) {
    // colex order, as the engine ranks draws
    this.draws = [...everyDraw(pool)].sort((a, b) => {
      for (let i = 6; i >= 0; i--) if (a[i] !== b[i]) return a[i]! - b[i]!;
      return 0;
    });
    this.totals = this.draws.map(() => 0);
  }
  pay(t: number[], d: number[], only?: number[]) {
    const m = t.filter((n) => d.includes(n)).length;
    return only && !only.includes(m) ? 0 : (this.w[m] ?? 0);
  }
  breach(t: number[]) {
    let best: { numbers: number[]; total: number } | null = null;
    this.draws.forEach((d, i) => {
      const total = this.totals[i]! + this.pay(t, d);
      if (
        total > this.limit &&
        (!best || total > best.total || (total === best.total && lexLess(d, best.numbers)))
      )
        best = { numbers: d, total };
    });
    return best;
  }
  add(t: number[]) {
    this.draws.forEach((d, i) => (this.totals[i] = this.totals[i]! + this.pay(t, d)));
  }
  worst() {
    let best = { numbers: this.draws[0]!, total: this.totals[0]! };
    this.draws.forEach((d, i) => {
      const total = this.totals[i]!;
      if (total > best.total || (total === best.total && lexLess(d, best.numbers)))
        best = { numbers: d, total };
    });
    return best;
  }
}

const caseArb = fc.integer({ min: 10, max: 14 }).chain((pool) =>
  fc.record({
    pool: fc.constant(pool),
    distinct: fc.array(ticketArb(pool), { minLength: 1, maxLength: 10 }),
    initial: fc.array(fc.nat(), { maxLength: 30 }),
    sales: fc.array(fc.oneof(fc.nat(), ticketArb(pool)), { minLength: 1, maxLength: 60 }),
    w: fc.oneof(
      fc.tuple(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 10_000 }),
      ),
      fc.tuple(fc.nat(30), fc.nat(30), fc.nat(300), fc.nat(3000), fc.nat(30_000)),
      // the 5-match payout above the others: its breaches found through the watch when it holds them
      fc.tuple(fc.nat(3), fc.nat(3), fc.integer({ min: 1, max: 100 }), fc.nat(5), fc.nat(5)),
      // the 3- and 4-match payouts alone: breaches far from the ticket, found through the watch
      fc.tuple(
        fc.integer({ min: 1, max: 20 }),
        fc.nat(20),
        fc.constant(0),
        fc.constant(0),
        fc.nat(3),
      ),
    ),
    limitPick: fc.double({ min: 0, max: 1.5, noNaN: true }),
    tuning: fc.record({
      watchCap: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 500, max: 4000 })),
      maxDeferred: fc.integer({ min: 1, max: 8 }),
      minDeferred: fc.integer({ min: 1, max: 3 }),
      fivesDeferredMin: fc.integer({ min: 1, max: 300 }),
    }),
  }),
);

describe('live book totals', () => {
  it('check, sell, fold and worst draw equal a ticket-by-ticket check of every draw', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const w = [0, 0, 0, ...c.w];
        const pick = (p: number | number[]) =>
          typeof p === 'number' ? c.distinct[p % c.distinct.length]! : p;
        // the limit: a share of what the first tickets would make the worst draw pay
        const all = new NaiveBook(c.pool, w, Infinity);
        for (const p of [...c.initial, ...c.sales.slice(0, 5)]) all.add(pick(p));
        const limit = Math.floor(all.worst().total * c.limitPick);
        const naive = new NaiveBook(c.pool, w, limit);
        // the book opens on the initial tickets a limit accepts in sales order
        for (const p of c.initial) if (!naive.breach(pick(p))) naive.add(pick(p));
        // a fold as the engine makes it: the deferred 3/4-match payouts of every draw
        const foldIfDue = (totals: BookTotals) => {
          if (!totals.foldDue) return;
          const pending = totals.pendingFold;
          const deferred = [...totals.deferredMatches];
          const sold: number[][] = [];
          for (let k = 0; k < pending.length; k += 7) sold.push([...pending.subarray(k, k + 7)]);
          totals.foldIn(
            naive.draws.map((d) => sold.reduce((s, u) => s + naive.pay(u, d, deferred), 0)),
          );
        };
        const book = new BookTotals(
          { pool: c.pool, w, limit },
          Float64Array.from(naive.totals),
          c.tuning,
        );
        expect(book.worst()).toEqual(naive.worst());
        for (const p of c.sales) {
          const t = pick(p);
          const expected = naive.breach(t);
          expect(book.check(Uint8Array.from(t))).toEqual(expected);
          if (expected) continue;
          naive.add(t);
          book.add(Uint8Array.from(t));
          foldIfDue(book);
          expect(book.worst()).toEqual(naive.worst());
        }
        // a copy tried on (a dry run of several tickets) follows its own sales and leaves the book be
        const copy = book.clone();
        const tried = new NaiveBook(c.pool, w, limit);
        tried.totals.splice(0, tried.totals.length, ...naive.totals);
        for (const p of c.sales.slice(0, 8)) {
          const t = pick(p);
          const expected = tried.breach(t);
          expect(copy.check(Uint8Array.from(t))).toEqual(expected);
          if (!expected) {
            tried.add(t);
            copy.add(Uint8Array.from(t));
            foldIfDue(copy);
          }
        }
        expect(copy.worst()).toEqual(tried.worst());
        expect(book.worst()).toEqual(naive.worst());
        // tickets added and taken out again, last first (a trial without a fold) leave no trace
        const trial = c.sales.slice(0, 8).map(pick);
        if (book.canTry(trial.length)) {
          const added: Uint8Array[] = [];
          for (const t of trial) {
            const u = Uint8Array.from(t);
            if (!book.check(u)) {
              book.add(u);
              added.push(u);
            }
          }
          for (let k = added.length - 1; k >= 0; k--) book.remove(added[k]!);
        }
        expect(book.worst()).toEqual(naive.worst());
        for (const p of c.sales.slice(0, 8))
          expect(book.check(Uint8Array.from(pick(p)))).toEqual(naive.breach(pick(p)));
      }),
      { numRuns: 200 },
    );
  });
});
