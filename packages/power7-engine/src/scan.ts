import { invariant } from './errors';
import { BINOM } from './model';
import type { Tables } from './tables';

/** What a scan needs besides the tables (all plain data, so it crosses a worker boundary). */
export interface ScanParams {
  pool: number;
  /** Payout per match type in units, index 3..7. */
  w: number[];
  alpha7: number;
  /** Inclusive qualification bounds on the total in units. */
  lo: number;
  hi: number;
  /** Per match type 3..7 (index 0..4): store counts in 16 bits when their bound allows. */
  wide: boolean[];
}

/** Qualifying draws of one top number (largest element `g`, 0-based), in ascending colex rank. */
export interface ScanChunk {
  g: number;
  seq: number;
  length: number;
  ranks: Uint32Array;
  /** Winners per match type 3..7 (index 0..4). */
  counts: (Uint16Array | Uint32Array)[];
}

export const HIST_BINS = 65536;

/** Totals over the draws scanned; mergeable across workers. Totals in units. */
export interface ScanStats {
  draws: number;
  qualified: number;
  min: number;
  max: number;
  worstRank: number;
  worstLex: number;
  /** Exact sum of all totals = sumBig + sumSmall (sumBig a decimal BigInt string). */
  sumBig: string;
  sumSmall: number;
  /** Fine histogram: hist[i] = draws with total in [i·2^shift, (i+1)·2^shift). */
  hist: Uint32Array;
  shift: number;
}

const FLUSH = 2 ** 52;

/** Lexicographic order key of seven ascending 0-based numbers (smallest first), < 2^53. */
function lexKey(a: number, o: Int32Array, g: number): number {
  return (((((a * 64 + o[0]!) * 64 + o[1]!) * 64 + o[2]!) * 64 + o[3]!) * 64 + o[4]!) * 64 + g;
}

/** Halves the histogram resolution until `v` fits. */
function widen(hist: Uint32Array, shift: number, v: number): number {
  while (Math.floor(v / 2 ** shift) >= HIST_BINS) {
    for (let i = 0; i < HIST_BINS / 2; i++) hist[i] = hist[2 * i]! + hist[2 * i + 1]!;
    hist.fill(0, HIST_BINS / 2);
    shift++;
  }
  return shift;
}

/** Brings a histogram to a coarser shift (exact: bins are aligned powers of two). */
export function coarsen(hist: Uint32Array, from: number, to: number): void {
  for (let s = from; s < to; s++) {
    for (let i = 0; i < HIST_BINS / 2; i++) hist[i] = hist[2 * i]! + hist[2 * i + 1]!;
    hist.fill(0, HIST_BINS / 2);
  }
}

const POPCOUNT6 = new Uint8Array(64);
for (let m = 1; m < 64; m++) POPCOUNT6[m] = POPCOUNT6[m >> 1]! + (m & 1);

// Subsets of a 6-set by bitmask, grouped by size, precomputed once.
const MASKS_BY_SIZE: number[][] = [[], [], [], [], [], [], []];
for (let mask = 1; mask < 64; mask++) {
  let bits = 0;
  for (let x = mask; x; x >>= 1) bits += x & 1;
  MASKS_BY_SIZE[bits]!.push(mask);
}

/**
 * Scans every draw whose largest number is one of `tops` (0-based), largest first as given.
 * Per draw: 7 loads from y6 (6 contiguous), one step of a pointer into the distinct tickets, a few
 * compares. Qualifying draws get their exact winners per match type from the count tables
 * (≈ 56 lookups, with the 6-number prefix work shared by the inner loop) and are handed to `emit`.
 * `onTop` is called after each top number with the draws done so far (progress / cancellation point).
 */
export function scanTops(
  tables: Tables,
  p: ScanParams,
  tops: readonly number[],
  emit: (chunk: ScanChunk) => void,
  onTop: (drawsDone: number) => boolean | void,
): ScanStats {
  const { y6, c3, c4, c5, c6, ticketRanks, ticketMult } = tables;
  const dense = tables.z3 !== undefined;
  const z3 = tables.z3 ?? c3;
  const z4 = tables.z4 ?? c4;
  const z5 = tables.z5 ?? c5;
  const { lo, hi, alpha7 } = p;
  const w3 = p.w[3]!;
  const w4 = p.w[4]!;
  const w5 = p.w[5]!;
  const w6 = p.w[6]!;
  const w7 = p.w[7]!;
  const nT = ticketRanks.length;
  let min = Infinity;
  let max = -Infinity;
  let worstRank = -1;
  let worstLex = Infinity;
  let sumSmall = 0;
  let sumBig = 0n;
  const hist = new Uint32Array(HIST_BINS);
  let shift = 0;
  let invWidth = 1; // 2^-shift, exact
  let limit = HIST_BINS; // totals < limit fit the current resolution
  let draws = 0;
  let qualified = 0;

  // Output buffers of a fixed size: a full one is handed over whole (transferred, no copy), only the
  // last partial one of each top number is copied to its length.
  const CHUNK = 1 << 18;
  let len = 0;
  let seq = 0;
  const newBufs = () => ({
    ranks: new Uint32Array(CHUNK),
    counts: p.wide.map((wd) => (wd ? new Uint32Array(CHUNK) : new Uint16Array(CHUNK))),
  });
  let bufs = newBufs();
  let ranksBuf = bufs.ranks;
  let countBufs = bufs.counts;
  let curG = -1;
  const flushChunk = () => {
    if (len === 0) return;
    const full = len === CHUNK;
    emit({
      g: curG,
      seq: seq++,
      length: len,
      ranks: full ? ranksBuf : ranksBuf.slice(0, len),
      counts: full ? countBufs : countBufs.map((b) => b.slice(0, len)),
    });
    if (full) {
      bufs = newBufs();
      ranksBuf = bufs.ranks;
      countBufs = bufs.counts;
    }
    len = 0;
  };
  const grow = flushChunk;

  // prefix caches for exact per-tier counts
  const nO = new Float64Array(7);
  const srOff = [0, 0, 0, 0, 15, 35, 50, 56]; // shifted ranks of (j-1)-subsets for j = 3..6
  const sr = new Float64Array(56);
  const rk = new Float64Array(64);
  const srk = new Float64Array(64);
  const el = new Int32Array(6);
  const tabs = [c3, c3, c3, c3, c4, c5, c6];
  const outer = new Int32Array(6);

  for (const g of tops) {
    if (g < 6) continue;
    if (curG !== -1) flushChunk();
    curG = g;
    seq = 0;
    const cg6 = BINOM[g]![6]!;
    let r = BINOM[g]![7]!; // first draw rank with top g
    // pointer into the distinct tickets
    let tp = 0;
    {
      let l = 0;
      let h = nT;
      while (l < h) {
        const mid = (l + h) >>> 1;
        if (ticketRanks[mid]! < r) l = mid + 1;
        else h = mid;
      }
      tp = l;
    }
    let nextT = tp < nT ? ticketRanks[tp]! : Infinity;
    // O = {o0 < o1 < o2 < o3 < o4 < g}; draws {a} ∪ O with a < o0. Nested loops keep the partial
    // sums of the subset ranks (u_i = C(o_i, i+1), v_i = C(o_i, i+2)), so each O costs a few adds.
    const o = outer;
    o[5] = g;
    let rank5 = 0;
    for (let o4 = 4; o4 < g; o4++) {
      o[4] = o4;
      const u4 = BINOM[o4]![5]!;
      const v4 = BINOM[o4]![6]!;
      for (let o3 = 3; o3 < o4; o3++) {
        o[3] = o3;
        const u3 = BINOM[o3]![4]!;
        const v3 = BINOM[o3]![5]!;
        for (let o2 = 2; o2 < o3; o2++) {
          o[2] = o2;
          const u2 = BINOM[o2]![3]!;
          const v2 = BINOM[o2]![4]!;
          for (let o1 = 1; o1 < o2; o1++) {
            o[1] = o1;
            const u1 = BINOM[o1]![2]!;
            const v1 = BINOM[o1]![3]!;
            const b0 = cg6 + u1 + u2 + u3 + u4;
            const B1 = cg6 + u2 + u3 + u4;
            const B2 = cg6 + v1 + u3 + u4;
            const B3 = cg6 + v1 + v2 + u4;
            const B4 = cg6 + v1 + v2 + v3;
            const B5 = v1 + v2 + v3 + v4;
            for (let o0 = 0; o0 < o1; o0++, rank5++) {
              o[0] = o0;
              const top = o0;
              const v0 = (o0 * (o0 - 1)) / 2;
              const b1 = B1 + v0;
              const b2 = B2 + v0;
              const b3 = B3 + v0;
              const b4 = B4 + v0;
              const b5 = B5 + v0;
              const y0 = y6[rank5 + cg6]!;
              let prefixReady = false;
              for (let a = 0; a < top; a++, r++) {
                const s =
                  y0 +
                  y6[b0 + a]! +
                  y6[b1 + a]! +
                  y6[b2 + a]! +
                  y6[b3 + a]! +
                  y6[b4 + a]! +
                  y6[b5 + a]!;
                let c7 = 0;
                if (r === nextT) {
                  c7 = ticketMult[tp]!;
                  tp++;
                  nextT = tp < nT ? ticketRanks[tp]! : Infinity;
                }
                const t = s / 24 + alpha7 * c7;
                if (t < min) min = t;
                if (t >= max) {
                  if (t > max) {
                    max = t;
                    worstRank = r;
                    worstLex = lexKey(a, o, g);
                  } else {
                    const lk = lexKey(a, o, g);
                    if (lk < worstLex) {
                      worstLex = lk;
                      worstRank = r;
                    }
                  }
                }
                sumSmall += t;
                if (sumSmall >= FLUSH) {
                  sumBig += BigInt(sumSmall);
                  sumSmall = 0;
                }
                if (t >= limit) {
                  shift = widen(hist, shift, t);
                  invWidth = 2 ** -shift;
                  limit = HIST_BINS * 2 ** shift;
                }
                hist[Math.floor(t * invWidth)]!++;
                if (t >= lo && t <= hi && dense) {
                  // dense mode: N_j(D) from the per-tier 6-set transforms, 7 contiguous loads per tier
                  const rO = rank5 + cg6;
                  const n3 =
                    (z3[rO]! +
                      z3[b0 + a]! +
                      z3[b1 + a]! +
                      z3[b2 + a]! +
                      z3[b3 + a]! +
                      z3[b4 + a]! +
                      z3[b5 + a]!) /
                    24;
                  const n4 =
                    (z4[rO]! +
                      z4[b0 + a]! +
                      z4[b1 + a]! +
                      z4[b2 + a]! +
                      z4[b3 + a]! +
                      z4[b4 + a]! +
                      z4[b5 + a]!) /
                    6;
                  const n5 =
                    (z5[rO]! +
                      z5[b0 + a]! +
                      z5[b1 + a]! +
                      z5[b2 + a]! +
                      z5[b3 + a]! +
                      z5[b4 + a]! +
                      z5[b5 + a]!) /
                    2;
                  const n6 =
                    c6[rO]! +
                    c6[b0 + a]! +
                    c6[b1 + a]! +
                    c6[b2 + a]! +
                    c6[b3 + a]! +
                    c6[b4 + a]! +
                    c6[b5 + a]!;
                  const e7 = c7;
                  const e6 = n6 - 7 * e7;
                  const e5 = n5 - 6 * e6 - 21 * e7;
                  const e4 = n4 - 5 * e5 - 15 * e6 - 35 * e7;
                  const e3 = n3 - 4 * e4 - 10 * e5 - 20 * e6 - 35 * e7;
                  invariant(
                    w3 * e3 + w4 * e4 + w5 * e5 + w6 * e6 + w7 * e7 === t,
                    'per-tier counts disagree with the folded total',
                  );
                  ranksBuf[len] = r;
                  countBufs[0]![len] = e3;
                  countBufs[1]![len] = e4;
                  countBufs[2]![len] = e5;
                  countBufs[3]![len] = e6;
                  countBufs[4]![len] = e7;
                  len++;
                  qualified++;
                  if (len === CHUNK) grow();
                } else if (t >= lo && t <= hi) {
                  if (!prefixReady) {
                    prefixReady = true;
                    el[0] = o[0]!;
                    el[1] = o[1]!;
                    el[2] = o[2]!;
                    el[3] = o[3]!;
                    el[4] = o[4]!;
                    el[5] = g;
                    // rank (positions from 1) and shifted rank (positions from 2) of every subset of the
                    // 6-prefix, each from the subset without its highest element: O(1) per mask
                    for (let mask = 1; mask < 64; mask++) {
                      const hb = 31 - Math.clz32(mask);
                      const low = mask ^ (1 << hb);
                      const pos = POPCOUNT6[low]!;
                      const row = BINOM[el[hb]!]!;
                      rk[mask] = rk[low]! + row[pos + 1]!;
                      srk[mask] = srk[low]! + row[pos + 2]!;
                    }
                    for (let j = 3; j <= 6; j++) {
                      let sum = 0;
                      for (const mask of MASKS_BY_SIZE[j]!) sum += tabs[j]![rk[mask]!]!;
                      nO[j] = sum;
                      let q = srOff[j]!;
                      for (const mask of MASKS_BY_SIZE[j - 1]!) sr[q++] = srk[mask]!;
                    }
                  }
                  let n3 = nO[3]!;
                  for (let q = 0; q < 15; q++) n3 += c3[sr[q]! + a]!;
                  let n4 = nO[4]!;
                  for (let q = 15; q < 35; q++) n4 += c4[sr[q]! + a]!;
                  let n5 = nO[5]!;
                  for (let q = 35; q < 50; q++) n5 += c5[sr[q]! + a]!;
                  let n6 = nO[6]!;
                  for (let q = 50; q < 56; q++) n6 += c6[sr[q]! + a]!;
                  const e7 = c7;
                  const e6 = n6 - 7 * e7;
                  const e5 = n5 - 6 * e6 - 21 * e7;
                  const e4 = n4 - 5 * e5 - 15 * e6 - 35 * e7;
                  const e3 = n3 - 4 * e4 - 10 * e5 - 20 * e6 - 35 * e7;
                  invariant(
                    w3 * e3 + w4 * e4 + w5 * e5 + w6 * e6 + w7 * e7 === t,
                    'per-tier counts disagree with the folded total',
                  );
                  if (len === CHUNK) grow();
                  ranksBuf[len] = r;
                  countBufs[0]![len] = e3;
                  countBufs[1]![len] = e4;
                  countBufs[2]![len] = e5;
                  countBufs[3]![len] = e6;
                  countBufs[4]![len] = e7;
                  len++;
                  qualified++;
                }
              }
            }
          }
        }
      }
    }
    draws += BINOM[g]![6]!;
    flushChunk();
    if (onTop(draws) === false) break;
  }
  return {
    draws,
    qualified,
    min,
    max,
    worstRank,
    worstLex,
    sumBig: sumBig.toString(),
    sumSmall,
    hist,
    shift,
  };
}
