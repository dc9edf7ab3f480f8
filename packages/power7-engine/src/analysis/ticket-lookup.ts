import { BINOM, PICK, TICKET_RANK_TERMS, ticketRank } from '../core/model';

/**
 * The tickets grouped by their 7 numbers (issue #27): a hash of each ticket's combination rank picks
 * its bucket; `order` lists the tickets bucket by bucket, in file order inside one (a stable counting
 * sort). A draw's 5-, 6- or 7-match winners are then found by looking up every ticket that could win
 * (196 of them for 6 matches at P=35) instead of walking all tickets. Memory: 4 bytes per ticket plus
 * one word per 4 tickets; built in four linear passes on a winners thread.
 */
export interface TicketLookup {
  bits: number;
  /** Bucket b holds `order[starts[b] .. starts[b + 1])`. */
  starts: Uint32Array;
  order: Uint32Array;
}

const bucketOf = (rank: number, bits: number) => Math.imul(rank, 0x9e3779b1) >>> (32 - bits);

/**
 * Builds the lookup of `count` tickets (in shared memory if asked, for the winners threads): each
 * ticket's bucket, then a stable two-digit radix sort of the tickets by bucket (a counting sort into
 * 4M buckets at once misses the cache at every ticket: 2.4–3 s at 10M instead of a few hundred ms).
 * Temporary memory: 12 bytes per ticket.
 */
export function buildTicketLookup(
  tickets: Uint8Array,
  count: number,
  shared = false,
): TicketLookup {
  const words = (n: number) =>
    shared ? new Uint32Array(new SharedArrayBuffer(n * 4)) : new Uint32Array(n);
  const bits = Math.max(4, Math.ceil(Math.log2(Math.max(count, 1))) - 2);
  const lowBits = bits >> 1;
  const lowMask = (1 << lowBits) - 1;
  const keys = new Uint32Array(count);
  const low = new Uint32Array((1 << lowBits) + 1);
  const high = new Uint32Array((1 << (bits - lowBits)) + 1);
  for (let t = 0, p = 0; t < count; t++, p += PICK) {
    const key = bucketOf(ticketRank(tickets, p), bits);
    keys[t] = key;
    low[(key & lowMask) + 1]!++;
    high[(key >>> lowBits) + 1]!++;
  }
  for (let d = 1; d < low.length; d++) low[d]! += low[d - 1]!;
  for (let d = 1; d < high.length; d++) high[d]! += high[d - 1]!;
  const byLowKeys = new Uint32Array(count);
  const byLow = new Uint32Array(count);
  for (let t = 0; t < count; t++) {
    const key = keys[t]!;
    const at = low[key & lowMask]!++;
    byLowKeys[at] = key;
    byLow[at] = t;
  }
  const order = words(count);
  for (let i = 0; i < count; i++) {
    const key = byLowKeys[i]!;
    const at = high[key >>> lowBits]!++;
    order[at] = byLow[i]!;
    keys[at] = key;
  }
  const buckets = 2 ** bits;
  const starts = words(buckets + 1);
  let b = 0;
  for (let i = 0; i < count; i++) {
    const key = keys[i]!;
    while (b <= key) starts[b++] = i;
  }
  while (b <= buckets) starts[b++] = count;
  return { bits, starts, order };
}

/** How many combinations win exactly `m` matches against a draw from `pool` numbers. */
export function winningCombinations(pool: number, m: number): number {
  return BINOM[PICK]![m]! * BINOM[pool - PICK]![PICK - m]!;
}

/** The k-subsets of `items`, each passed to `visit` as a bitmask of the numbers (bit n − 1). */
function subsets(items: number[], k: number, visit: (lo: number, hi: number) => void): void {
  const pick = (from: number, left: number, lo: number, hi: number): void => {
    if (left === 0) return visit(lo, hi);
    for (let i = from; i <= items.length - left; i++) {
      const n = items[i]!;
      if (n <= 32) pick(i + 1, left - 1, lo | (1 << (n - 1)), hi);
      else pick(i + 1, left - 1, lo, hi | (1 << (n - 33)));
    }
  };
  pick(0, k, 0, 0);
}

/** The colex rank of the combination whose numbers are the set bits of lo/hi. */
function maskRank(lo: number, hi: number): number {
  let rank = 0;
  let i = 1;
  for (let word = lo, base = 1; ; word = hi, base = 33) {
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      rank += TICKET_RANK_TERMS[(base + bit) * 8 + i++]!;
      word &= word - 1;
    }
    if (base === 33) return rank;
  }
}

/**
 * The tickets with exactly `m` matches of the draw `numbers` (pool 1..`pool`), ascending ticket index:
 * every winning combination looked up in `lookup`. Cost ∝ `winningCombinations(pool, m)`.
 */
export function lookUpWinners(
  lookup: TicketLookup,
  tickets: Uint8Array,
  pool: number,
  numbers: readonly number[],
  m: number,
): Uint32Array {
  const others: number[] = [];
  for (let n = 1; n <= pool; n++) if (!numbers.includes(n)) others.push(n);
  const { bits, starts, order } = lookup;
  let found = new Uint32Array(64);
  let k = 0;
  subsets([...numbers], m, (dLo, dHi) =>
    subsets(others, PICK - m, (oLo, oHi) => {
      const rank = maskRank((dLo | oLo) >>> 0, (dHi | oHi) >>> 0);
      const b = bucketOf(rank, bits);
      for (let i = starts[b]!; i < starts[b + 1]!; i++) {
        const t = order[i]!;
        if (ticketRank(tickets, t * PICK) !== rank) continue;
        if (k === found.length) {
          const grown = new Uint32Array(k * 2);
          grown.set(found);
          found = grown;
        }
        found[k++] = t;
      }
    }),
  );
  return found.subarray(0, k).sort();
}
