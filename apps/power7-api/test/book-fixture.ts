import { customerCsv, DEFAULT_FIELDS, everyDraw } from './helper';

/**
 * The live book tests' file and reference: a heavy-tailed file at a small pool (one combination
 * bought 40 times, spread through it) and every draw's total kept ticket by ticket — the obvious
 * check the book must equal.
 */
export const BOOK_POOL = 12;
export const BOOK_PAYOUTS = [5, 50, 2_000, 50_000, 1_000_000];
export const BOOK_LIMIT = 3_000_000;

const draws = [...everyDraw(BOOK_POOL)];

const pay = (t: number[], d: number[]) => {
  const m = t.filter((n) => d.includes(n)).length;
  return m >= 3 ? BOOK_PAYOUTS[m - 3]! : 0;
};
const lexLess = (a: number[], b: number[]) => {
  for (let i = 0; i < 7; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
};

/** The file (its CSV, the upload's fields) and its tickets in line order; `hot` the one bought 40 times. */
export function heavyTailedFile() {
  const lines = customerCsv(250, BOOK_POOL, 11).trim().split('\n');
  const hot = lines[1]!.split(',').slice(3, 10).map(Number);
  for (let k = 0; k < 40; k++) lines.splice(20 + k * 6, 0, `HOT${k},Hot,+49,${hot.join(',')},h`);
  return {
    csv: lines.join('\n') + '\n',
    fields: {
      ...DEFAULT_FIELDS,
      pool_size: String(BOOK_POOL),
      budget: '1000000',
      ...Object.fromEntries(BOOK_PAYOUTS.map((p, i) => [`payout_${i + 3}`, String(p)])),
    },
    tickets: lines.slice(1).map((line) => line.split(',').slice(3, 10).map(Number)),
    hot,
  };
}

/** Random tickets of the pool (seeded), as a terminal would offer them. */
export const offeredTickets = (count: number, seed: number) =>
  customerCsv(count, BOOK_POOL, seed)
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').slice(3, 10).map(Number));

/** Every draw's total, kept ticket by ticket under the limit. */
export class NaiveBook {
  static readonly draws = draws;
  totals = draws.map(() => 0);

  /** The draw the ticket would push highest past the limit, or accepted (and sold when `sell`). */
  offer(t: number[], sell = true) {
    let worst = -1;
    let worstTotal = -1;
    draws.forEach((d, i) => {
      const total = this.totals[i]! + pay(t, d);
      if (
        total > BOOK_LIMIT &&
        (total > worstTotal || (total === worstTotal && lexLess(d, draws[worst]!)))
      ) {
        worst = i;
        worstTotal = total;
      }
    });
    if (worst >= 0) return { accepted: false, draw: draws[worst]!.join('-'), wouldBe: worstTotal };
    if (sell) draws.forEach((d, i) => (this.totals[i] = this.totals[i]! + pay(t, d)));
    return { accepted: true };
  }

  worst() {
    let w = 0;
    this.totals.forEach((t, i) => {
      if (t > this.totals[w]!) w = i;
    });
    return { combo: draws[w]!.join('-'), totalPayout: this.totals[w]! };
  }

  /** How many copies of `ticket` would still be accepted, up to 2. */
  fitting(ticket: number[]) {
    const copy = new NaiveBook();
    copy.totals = [...this.totals];
    let n = 0;
    while (n < 2 && copy.offer(ticket).accepted) n++;
    return n;
  }

  /** A ticket that fits exactly once more, once `sell` has sold copies of it (each sold here too). */
  async fitOnce(sell: (ticket: number[]) => Promise<unknown>) {
    const once = draws.find((d) => this.fitting(d) > 0)!;
    while (this.fitting(once) === 2) {
      await sell(once);
      this.offer(once);
    }
    return once;
  }
}
