import type { Budget, Payouts } from '../src/core/model';

export interface NaiveDraw {
  numbers: number[];
  winners: number[]; // index 3..7
  totalCents: number;
}

/** Every draw × every ticket, the obvious way. Only for small pools. */
export function naiveAnalysis(tickets: number[][], pool: number, payouts: Payouts): NaiveDraw[] {
  const out: NaiveDraw[] = [];
  const masks = tickets.map((t) => t.reduce((m, n) => m | (1n << BigInt(n)), 0n));
  const cur: number[] = [];
  const rec = (start: number) => {
    if (cur.length === 7) {
      const dm = cur.reduce((m, n) => m | (1n << BigInt(n)), 0n);
      const winners = [0, 0, 0, 0, 0, 0, 0, 0];
      for (const tm of masks) {
        let x = tm & dm;
        let c = 0;
        while (x) {
          c += Number(x & 1n);
          x >>= 1n;
        }
        winners[c]!++;
      }
      let total = 0;
      for (const m of [3, 4, 5, 6, 7] as const) total += winners[m]! * Math.round(payouts[m] * 100);
      out.push({ numbers: [...cur], winners, totalCents: total });
      return;
    }
    for (let n = start; n <= pool; n++) {
      cur.push(n);
      rec(n + 1);
      cur.pop();
    }
  };
  rec(1);
  return out;
}

export function qualifies(totalCents: number, budget: Budget): boolean {
  if (budget.type === 'fixed') return totalCents <= Math.round(budget.budget * 100);
  return totalCents >= Math.round(budget.min * 100) && totalCents <= Math.round(budget.max * 100);
}
