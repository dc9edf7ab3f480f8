import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeTickets, closeScanWorkers } from '../src/analysis/analyze';
import { LiveBookTotals } from '../src/analysis/book';
import { totalsLessRefused } from '../src/analysis/book-opening';
import { seeTotals } from '../src/core/book-watch';
import { BookTotals } from '../src/core/book';
import { BINOM, ticketRank } from '../src/core/model';
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
      // short fold periods, and long ones in which the deferred 5-matches' bound (21 × the most
      // copies of a 5-subset) can call a fold before the count does
      maxDeferred: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 22, max: 64 })),
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

describe('live book totals, 5-match payouts deferred', () => {
  it('folds early when one 5-subset is bought again and again, and stays exact', () => {
    // the same tickets sold over and over: the deferred 5-matches' bound (21 × the most copies of
    // a 5-subset) passes what the watch was chosen for before the fold's count comes
    const pool = 12;
    const w = [0, 0, 0, 1, 2, 100, 400, 1_000];
    const tickets = [
      [1, 2, 3, 4, 5, 6, 7],
      [1, 2, 3, 4, 5, 8, 9],
      [2, 4, 6, 8, 10, 11, 12],
    ];
    const limit = 40_000;
    const naive = new NaiveBook(pool, w, limit);
    for (let k = 0; k < 40; k++) naive.add(tickets[k % 3]!);
    const book = new BookTotals({ pool, w, limit }, Float64Array.from(naive.totals), {
      watchCap: 200,
      maxDeferred: 1000,
      minDeferred: 1,
      fivesDeferredMin: 1,
    });
    expect(book.shape.fivesDeferred).toBe(true);
    let earlyFolds = 0;
    for (let k = 0; k < 240; k++) {
      const t = tickets[k % 3]!;
      const expected = naive.breach(t);
      expect(book.check(Uint8Array.from(t))).toEqual(expected);
      if (expected) continue;
      naive.add(t);
      book.add(Uint8Array.from(t));
      if (book.foldDue) {
        const pending = book.pendingFold;
        if (pending.length / 7 < book.shape.foldEvery) earlyFolds++;
        const sold: number[][] = [];
        for (let p = 0; p < pending.length; p += 7) sold.push([...pending.subarray(p, p + 7)]);
        const deferred = [...book.deferredMatches];
        book.foldIn(
          naive.draws.map((d) => sold.reduce((s, u) => s + naive.pay(u, d, deferred), 0)),
        );
      }
      expect(book.worst()).toEqual(naive.worst());
    }
    expect(earlyFolds).toBeGreaterThan(0);
  });
});

/**
 * At P=49 a sale moves 18,376 draws of 5, 6 or 7 matches (85,900,584 draws in all): checks, sales
 * and the worst draw against a count over each ticket's 5+-match draws, with only those paying
 * (a draw's total is then the payouts of the tickets it shares 5 or more numbers with), the
 * 5-matches updated at once and deferred.
 */
describe('live book totals at P=49', () => {
  const pool = 49;
  const w = [0, 0, 0, 0, 0, 100, 10_000, 1_000_000];
  const hot = [3, 9, 14, 22, 30, 41, 47];
  const others = (t: number[]) => {
    const out: number[] = [];
    for (let n = 1; n <= pool; n++) if (!t.includes(n)) out.push(n);
    return out;
  };
  /** Every draw sharing 5 or more numbers with t, once each. */
  const nearDraws = (t: number[]): number[][] => {
    const rest = others(t);
    const draws: number[][] = [t];
    for (let drop = 0; drop < 7; drop++)
      for (const x of rest)
        draws.push([...t.filter((_, i) => i !== drop), x].sort((a, b) => a - b));
    for (let a = 0; a < 7; a++)
      for (let b = a + 1; b < 7; b++)
        for (let i = 0; i < rest.length; i++)
          for (let j = i + 1; j < rest.length; j++)
            draws.push(
              [...t.filter((_, k) => k !== a && k !== b), rest[i]!, rest[j]!].sort((p, q) => p - q),
            );
    return draws;
  };
  /** A set of numbers 1..49 as two bit masks (numbers 1–30, 31–49), for counting shared numbers. */
  const maskOf = (t: number[]): [number, number] => {
    let low = 0;
    let high = 0;
    for (const n of t) {
      if (n <= 30) low |= 1 << (n - 1);
      else high |= 1 << (n - 31);
    }
    return [low, high];
  };
  const bits = (x: number) => {
    let c = 0;
    for (; x; c++) x &= x - 1;
    return c;
  };
  const payMasks = (u: [number, number], d: [number, number]) =>
    w[bits(u[0] & d[0]) + bits(u[1] & d[1])] ?? 0;
  const rankOf = (d: number[]) => ticketRank(Uint8Array.from(d), 0);

  /** The book's tickets with their copies; totals counted over them. */
  class NearBook {
    readonly copies = new Map<string, { t: number[]; mask: [number, number]; n: number }>();
    constructor(readonly limit: number) {}
    add(t: number[]) {
      const key = t.join();
      const found = this.copies.get(key);
      if (found) found.n++;
      else this.copies.set(key, { t, mask: maskOf(t), n: 1 });
    }
    total(d: number[]) {
      const mask = maskOf(d);
      let s = 0;
      for (const { mask: u, n } of this.copies.values()) s += n * payMasks(u, mask);
      return s;
    }
    breach(t: number[]) {
      let best: { numbers: number[]; total: number } | null = null;
      for (const d of nearDraws(t)) {
        const total = this.total(d) + payMasks(maskOf(t), maskOf(d));
        if (
          total > this.limit &&
          (!best || total > best.total || (total === best.total && lexLess(d, best.numbers)))
        )
          best = { numbers: d, total };
      }
      return best;
    }
    worst() {
      let best = { numbers: [1, 2, 3, 4, 5, 6, 7], total: 0 };
      for (const { t } of this.copies.values()) {
        for (const d of nearDraws(t)) {
          const total = this.total(d);
          if (total > best.total || (total === best.total && lexLess(d, best.numbers)))
            best = { numbers: d, total };
        }
      }
      return best;
    }
  }

  // tickets near the hot one (sharing 4 to 6 of its numbers) and random ones, seeded
  let seed = 49;
  const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const sales: number[][] = [];
  for (let k = 0; k < 24; k++) {
    const t = new Set(k % 3 === 2 ? [] : hot.slice(0, 4 + (k % 3) * 2 - (k % 2)));
    while (t.size < 7) t.add(1 + Math.floor(next() * pool));
    sales.push([...t].sort((a, b) => a - b));
  }
  sales.splice(5, 0, hot, sales[0]!, sales[0]!);

  it.each([
    ['deferred', { maxDeferred: 4096 }],
    ['updated at once', { watchCap: 0 }],
  ] as const)(
    'checks, sells and names the worst draw as a count over every ticket does (5-matches %s)',
    (mode, tuning) => {
      const limit = 30_500_000;
      const near = new NearBook(limit);
      const base = new Uint32Array(BINOM[pool]![7]!);
      // the book opens on 30 copies of the hot ticket
      for (let k = 0; k < 30; k++) near.add(hot);
      for (const d of nearDraws(hot)) base[rankOf(d)] = near.total(d);
      const book = new BookTotals({ pool, w, limit }, base, tuning);
      expect(book.shape.fivesDeferred).toBe(mode === 'deferred');
      expect(book.worst()).toEqual(near.worst());
      let refused = 0;
      for (const t of sales) {
        const expected = near.breach(t);
        expect(book.check(Uint8Array.from(t))).toEqual(expected);
        if (expected) {
          refused++;
          continue;
        }
        near.add(t);
        book.add(Uint8Array.from(t));
        expect(book.foldDue).toBe(false);
        for (const d of nearDraws(t).slice(0, 400))
          expect(book.totalOf(Uint8Array.from(d), rankOf(d))).toBe(near.total(d));
      }
      expect(refused).toBeGreaterThan(0);
      expect(book.worst()).toEqual(near.worst());
    },
    120_000,
  );
});

describe('opening a live book', () => {
  it('opens at a limit equal to its worst draw, and refuses to open one unit below it', async () => {
    const pool = 11;
    const payouts = { 3: 5, 4: 50, 5: 2_000, 6: 50_000, 7: 1_000_000 };
    const w = [0, 0, 0, 5, 50, 2_000, 50_000, 1_000_000];
    const tickets = [
      [1, 2, 3, 4, 5, 6, 7],
      [1, 2, 3, 4, 5, 6, 7],
      [2, 4, 6, 8, 9, 10, 11],
      [1, 3, 5, 7, 9, 10, 11],
      [3, 4, 5, 6, 7, 8, 9],
    ];
    const naive = new NaiveBook(pool, w, Infinity);
    for (const t of tickets) naive.add(t);
    const worst = Math.max(...naive.totals);
    const flat = Uint8Array.from(tickets.flat());
    const book = await LiveBookTotals.open({ pool, payouts, limit: worst, workers: 1 }, flat);
    expect(book.worst().totalPayout).toBe(worst);
    await expect(
      LiveBookTotals.open({ pool, payouts, limit: worst - 5, workers: 1 }, flat),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
  });
});

/** A live book's answer to a ticket, from the naive book's breach (null: it fits). */
function answerOf(breach: { numbers: number[]; total: number } | null) {
  return breach
    ? { accepted: false, draw: breach.numbers.join('-'), wouldBe: breach.total }
    : { accepted: true };
}

describe('opening a live book from its session', () => {
  it('the session totals less the refused tickets give the book the totals of its own tickets, and it sells on exactly through its folds', async () => {
    // a 7-match payout of 1,000,001: the book counts in units of 1 (cents 100), a fold's analysis
    // of the 3/4/5-match payouts alone in units of 5 (cents 500), scaled back at the fold
    const payouts = { 3: 5, 4: 50, 5: 2_000, 6: 50_000, 7: 1_000_001 };
    const w = [0, 0, 0, 5, 50, 2_000, 50_000, 1_000_001];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 10, max: 12 }).chain((pool) =>
          fc.record({
            pool: fc.constant(pool),
            tickets: fc.array(fc.record({ numbers: ticketArb(pool), refused: fc.boolean() }), {
              minLength: 1,
              maxLength: 40,
            }),
            probes: fc.array(ticketArb(pool), { minLength: 1, maxLength: 5 }),
            room: fc.double({ min: 1, max: 2, noNaN: true }),
          }),
        ),
        async ({ pool, tickets, probes, room }) => {
          const kept = tickets.filter((t) => !t.refused).map((t) => t.numbers);
          const refused = tickets.filter((t) => t.refused).map((t) => t.numbers);
          // fewer refused than kept: the seed's path (else the book analyses its own tickets)
          fc.pre(refused.length < kept.length);
          const session = await analyzeTickets(
            Uint8Array.from(tickets.flatMap((t) => t.numbers)),
            tickets.length,
            { pool, payouts, budget: { type: 'fixed', budget: 0 }, keepDraws: false, workers: 1 },
          );
          const naive = new NaiveBook(pool, w, Infinity);
          for (const t of kept) naive.add(t);
          const worst = naive.worst();
          // opened at the worst draw's total; one unit (1) below it, refused
          const game = { pool, payouts, limit: worst.total, workers: 1 };
          const seed = {
            totals: session.distribution.totals,
            unit: session.weights.unit,
            refused: Uint8Array.from(refused.flat()),
          };
          const flat = Uint8Array.from(kept.flat());
          const book = await LiveBookTotals.open(game, flat, seed);
          expect(book.worst()).toEqual({
            combo: worst.numbers.join('-'),
            totalPayout: worst.total,
          });
          const within = new NaiveBook(pool, w, worst.total);
          for (const t of kept) within.add(t);
          for (const probe of probes) {
            expect(await book.offer(Uint8Array.from(probe), false)).toEqual(
              answerOf(within.breach(probe)),
            );
          }
          if (worst.total >= 1) {
            await expect(
              LiveBookTotals.open({ ...game, limit: worst.total - 1 }, flat, seed),
            ).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
          }
          // sold on at a looser limit, a fold after every sale: the totals leave the analysis'
          // array for their own at the first fold, and stay exact
          const limit = Math.floor(worst.total * room);
          const sold = new NaiveBook(pool, w, limit);
          for (const t of kept) sold.add(t);
          const tuning = { maxDeferred: 1, minDeferred: 1 };
          const selling = await LiveBookTotals.open({ ...game, limit, tuning }, flat, seed);
          for (const t of probes) {
            const breach = sold.breach(t);
            expect(await selling.offer(Uint8Array.from(t), true)).toEqual(answerOf(breach));
            if (!breach) sold.add(t);
          }
          const after = sold.worst();
          expect(selling.worst()).toEqual({
            combo: after.numbers.join('-'),
            totalPayout: after.total,
          });
          if (sold.totals.some((total, d) => total !== within.totals[d]))
            expect(selling.folds).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe("the session totals less the refused tickets (a book opening's pass)", () => {
  afterAll(closeScanWorkers);

  it('equal the session totals less an analysis of the refused, and see the same draws, inline and on two workers', async () => {
    const payouts = { 3: 5, 4: 50, 5: 2_000, 6: 50_000, 7: 1_000_000 };
    const budget = { type: 'fixed', budget: 0 } as const;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 9, max: 13 }).chain((pool) =>
          fc.record({
            pool: fc.constant(pool),
            tickets: fc.array(fc.record({ numbers: ticketArb(pool), refused: fc.boolean() }), {
              minLength: 2,
              maxLength: 60,
            }),
            floorAt: fc.double({ min: 0.3, max: 1, noNaN: true }),
            most: fc.integer({ min: 1, max: 400 }),
            workers: fc.constantFrom(1, 2),
          }),
        ),
        async ({ pool, tickets, floorAt, most, workers }) => {
          const refused = tickets.filter((t) => t.refused).map((t) => t.numbers);
          fc.pre(refused.length > 0);
          const all = Uint8Array.from(tickets.flatMap((t) => t.numbers));
          const opts = { pool, payouts, budget, keepDraws: false, workers: 1 };
          const session = (await analyzeTickets(all, tickets.length, opts)).distribution.totals;
          const own = (await analyzeTickets(Uint8Array.from(refused.flat()), refused.length, opts))
            .distribution.totals;
          const expected = session.map((t, d) => t - own[d]!);
          // a floor between the smallest and the largest difference, so that some draws are seen
          const lo = Math.min(...expected);
          const floor = lo + floorAt * (Math.max(...expected) - lo);
          const from = { floor, most };
          const got = await totalsLessRefused(
            { pool, payouts, workers },
            session,
            Uint8Array.from(refused.flat()),
            from,
          );
          expect(Array.from(got.totals)).toEqual(Array.from(expected));
          const seen = seeTotals(expected, from);
          expect(got.seen.top).toBe(seen.top);
          expect(got.seen.count).toBe(seen.count);
          // the list is read only when every seen draw is in it (most cases: `most` up to 400)
          if (seen.count <= most) {
            expect(Array.from(got.seen.ranks.subarray(0, seen.count))).toEqual(
              Array.from(seen.ranks.subarray(0, seen.count)),
            );
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
