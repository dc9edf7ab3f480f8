import { BINOM, PICK } from './model';
import type { CountTables, Tables } from './table-types';
import { firstTicketAtLeast } from './ticket-ranks';

/**
 * Estimates the share of draws that qualify from `samples` random draws, each computed exactly from
 * the tables (7 six-subset loads + a binary search for c7). Used to choose sparse or dense per-tier
 * counting before the scan.
 */
export function estimateQualifyingShare(
  t: Tables,
  alpha7: number,
  lo: number,
  hi: number,
  samples = 256,
): number {
  const pool = t.pool;
  let seed = 0x9e3779b9;
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const el: number[] = [];
  let hits = 0;
  for (let s = 0; s < samples; s++) {
    el.length = 0;
    while (el.length < 7) {
      const v = Math.floor(rnd() * pool);
      if (!el.includes(v)) el.push(v);
    }
    el.sort((a, b) => a - b);
    let sum = 0;
    for (let drop = 0; drop < 7; drop++) {
      let r = 0;
      for (let i = 0, pos = 1; i < 7; i++) {
        if (i === drop) continue;
        r += BINOM[el[i]!]![pos++]!;
      }
      sum += t.y6[r]!;
    }
    let rank = 0;
    for (let i = 0; i < 7; i++) rank += BINOM[el[i]!]![i + 1]!;
    const at = firstTicketAtLeast(t.ticketRanks, rank);
    const c7 = t.ticketRanks[at] === rank ? t.ticketMult[at]! : 0;
    const total = sum / 24 + alpha7 * c7;
    if (total >= lo && total <= hi) hits++;
  }
  return hits / samples;
}

/**
 * Winners of one draw per match type 3..7 (index 0..4) from the count tables: N_j = Σ over its
 * j-subsets S of c_j(S) counts each ticket with m ≥ j matches C(m, j) times, so the exact counts come
 * by inclusion–exclusion from m = 7 down. ~100 lookups: for the few draws a caller lists (the best
 * ones), not for a scan.
 */
export function winnersFromTables(t: CountTables, numbers: readonly number[]): number[] {
  const el = numbers.map((n) => n - 1);
  const bySize = [t.c3, t.c3, t.c3, t.c3, t.c4, t.c5, t.c6];
  const n = [0, 0, 0, 0, 0, 0, 0];
  for (let mask = 1; mask < 1 << PICK; mask++) {
    let size = 0;
    let rank = 0;
    for (let i = 0; i < PICK; i++) if (mask & (1 << i)) rank += BINOM[el[i]!]![++size]!;
    if (size >= 3 && size <= 6) n[size] = n[size]! + bySize[size]![rank]!;
  }
  let rank7 = 0;
  for (let i = 0; i < PICK; i++) rank7 += BINOM[el[i]!]![i + 1]!;
  const at = firstTicketAtLeast(t.ticketRanks, rank7);
  const e7 = t.ticketRanks[at] === rank7 ? t.ticketMult[at]! : 0;
  const e6 = n[6]! - 7 * e7;
  const e5 = n[5]! - 6 * e6 - 21 * e7;
  const e4 = n[4]! - 5 * e5 - 15 * e6 - 35 * e7;
  const e3 = n[3]! - 4 * e4 - 10 * e5 - 20 * e6 - 35 * e7;
  return [e3, e4, e5, e6, e7];
}
