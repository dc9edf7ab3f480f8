import { BINOM } from './model';
import { QualifyingWriter } from './qualifying-writer';
import type { Tables } from './table-types';
import { firstTicketAtLeast } from './ticket-ranks';
import { countedStats, lexKey, scanTopCounted } from './scan-counted';

/** What a scan needs besides the tables (all plain data, so it crosses a worker boundary). */
export interface ScanParams {
  pool: number;
  /** Payout per match type in units, index 3..7. */
  w: number[];
  alpha7: number;
  /** Inclusive qualification bounds on the total in units. */
  lo: number;
  hi: number;
  /** Per match type 3..7 (index 0..4): bytes per stored count (1, 2 or 4), as their bound needs. */
  widths: CountWidth[];
  /**
   * Every draw's total in units, by colex rank (shared by the workers, each writing its own draws):
   * the exact distribution every budget question is answered from (`distribution.ts`). Not written
   * when `exactUpTo` is set.
   */
  totals: Float64Array;
  /**
   * Instead of writing `totals`, count how many draws have each total 0..exactUpTo (`ScanStats.exact`):
   * enough for quantiles (the CLI), with no 8 bytes per draw written and no pass over them after.
   * Every total must be at most this (the caller's bound); 0 or unset: off.
   */
  exactUpTo?: number;
  /**
   * Keep the qualifying draws with their winners per match type (`ScanChunk`s); false when the caller
   * needs only how many qualify and the best few (`top`), as the CLI: no per-draw recording then.
   */
  record: boolean;
  /** How many of the best qualifying draws to keep (highest total, ties by combo ascending); 0: none. */
  top: number;
}

/** Qualifying draws of one top number (largest element `g`, 0-based), in ascending colex rank. */
export interface ScanChunk {
  g: number;
  seq: number;
  length: number;
  ranks: Uint32Array;
  /** Winners per match type 3..7 (index 0..4). */
  counts: CountColumn[];
}

/** A column of winner counts, as narrow as the counts' bound allows. */
export type CountColumn = Uint8Array | Uint16Array | Uint32Array;
export type CountWidth = 1 | 2 | 4;

/** The narrowest width that holds every value up to `bound`. */
export function countWidth(bound: number): CountWidth {
  return bound <= 0xff ? 1 : bound <= 0xffff ? 2 : 4;
}

export const HIST_BINS = 65536;

/**
 * Totals over the draws scanned; mergeable across workers. Totals in units. (The sum of all totals
 * needs no scan: it is T·Σ_m w_m·C(7,m)·C(P−7,7−m), see `analyze.ts`.)
 */
export interface ScanStats {
  draws: number;
  qualified: number;
  min: number;
  max: number;
  worstRank: number;
  worstLex: number;
  /** Fine histogram: hist[i] = draws with total in [i·2^shift, (i+1)·2^shift). */
  hist: Uint32Array;
  shift: number;
  /** The best `ScanParams.top` qualifying draws of this scan, best first. */
  top: TopDraw[];
  /** exact[t] = draws with total t (`ScanParams.exactUpTo`; empty when off). */
  exact: Uint32Array;
}

/** One of the best qualifying draws: its colex rank, its total in units and its lexicographic key. */
export interface TopDraw {
  rank: number;
  total: number;
  lex: number;
}

/** Best first: the higher total, then the smaller lexicographic key (combo ascending). */
export function compareTopDraws(x: TopDraw, y: TopDraw): number {
  return y.total - x.total || x.lex - y.lex;
}

/**
 * The best `size` qualifying draws seen so far, kept sorted best first (`size` is small, e.g. 20: an
 * insertion costs at most `size` moves, and after the first few thousand draws almost no draw is good
 * enough to enter). `floor` is the total a draw must reach to be offered.
 */
export class TopDraws {
  readonly ranks: Float64Array;
  readonly totals: Float64Array;
  readonly lexes: Float64Array;
  length = 0;
  /** Totals below this cannot enter; +∞ when nothing is kept. */
  floor: number;

  constructor(readonly size: number) {
    this.ranks = new Float64Array(size);
    this.totals = new Float64Array(size);
    this.lexes = new Float64Array(size);
    this.floor = size > 0 ? -Infinity : Infinity;
  }

  /** Offers a draw whose total is ≥ `floor`; returns the new floor. */
  offer(total: number, lex: number, rank: number): number {
    const { ranks, totals, lexes, size } = this;
    let at = this.length;
    while (
      at > 0 &&
      (totals[at - 1]! < total || (totals[at - 1] === total && lexes[at - 1]! > lex))
    )
      at--;
    if (at < size) {
      const last = Math.min(this.length, size - 1);
      for (let i = last; i > at; i--) {
        ranks[i] = ranks[i - 1]!;
        totals[i] = totals[i - 1]!;
        lexes[i] = lexes[i - 1]!;
      }
      ranks[at] = rank;
      totals[at] = total;
      lexes[at] = lex;
      if (this.length < size) this.length++;
    }
    if (this.length === size) this.floor = totals[size - 1]!;
    return this.floor;
  }

  list(): TopDraw[] {
    return Array.from({ length: this.length }, (_, i) => ({
      rank: this.ranks[i]!,
      total: this.totals[i]!,
      lex: this.lexes[i]!,
    }));
  }
}

/** Where a scan hands its qualifying draws (one chunk at a time) and reports progress. */
export interface ScanSink {
  chunk(chunk: ScanChunk): void;
  /** After each top number, with the draws done so far; `false` stops the scan (cancellation). */
  progress(drawsDone: number): boolean | void;
}

/** Halves the histogram resolution until `v` fits; returns the new shift. */
function widen(hist: Uint32Array, shift: number, v: number): number {
  while (Math.floor(v / 2 ** shift) >= HIST_BINS) {
    coarsen(hist, shift, shift + 1);
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

// The kernel is split into small functions whose argument and field types never change (typed arrays
// and numbers only; one class per role): V8 then optimises each once, quickly, and never throws the
// code away. A single big function with closures and plain-object parameters was deoptimised and
// recompiled several times per analysis (each TurboFan compile ~0.1–0.3 s of a core).

/** The running statistics of a scan (one shape for every scan). */
export class RunningStats {
  min = Infinity;
  max = -Infinity;
  worstRank = -1;
  worstLex = Infinity;
  draws = 0;
  qualified = 0;
  readonly hist = new Uint32Array(HIST_BINS);
  shift = 0;
}

/**
 * Scans every draw whose largest number is `g` (0-based): per draw 7 loads from y6 (6 contiguous), one
 * step of a pointer into the distinct tickets, the statistics and the budget test; qualifying draws go
 * to `out`. Draws are D = {a} ∪ O, O = {o0 < … < o4 < g}, a < o0, in colex order, so their rank is a
 * counter; the nested loops keep the partial sums of the subset ranks (u_i = C(o_i, i+1),
 * v_i = C(o_i, i+2)), so each O costs a few adds.
 */
function scanTop(
  g: number,
  y6: Float64Array,
  ticketRanks: Uint32Array,
  ticketMult: Uint32Array,
  alpha7: number,
  lo: number,
  hi: number,
  st: RunningStats,
  out: QualifyingWriter | null,
  best: TopDraws,
  o: Int32Array,
  totals: Float64Array,
  exact: Uint32Array,
): void {
  let { min, max, worstRank, worstLex, qualified, shift } = st;
  const keepTotals = exact.length === 0;
  let floor = best.floor;
  const hist = st.hist;
  let invWidth = 2 ** -shift; // exact
  let limit = HIST_BINS * 2 ** shift; // totals below fit the current resolution
  const nT = ticketRanks.length;
  const cg6 = BINOM[g]![6]!;
  let r = BINOM[g]![7]!; // first draw rank with top g
  // pointer into the distinct tickets (ascending ranks)
  let tp = firstTicketAtLeast(ticketRanks, r);
  let nextT = tp < nT ? ticketRanks[tp]! : -1;
  o[5] = g;
  let rank5 = 0; // rank of O \ {g} among the 5-sets = rank of O among the 6-sets with top g, minus cg6
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
            const v0 = (o0 * (o0 - 1)) / 2;
            const b1 = B1 + v0;
            const b2 = B2 + v0;
            const b3 = B3 + v0;
            const b4 = B4 + v0;
            const b5 = B5 + v0;
            const rO = rank5 + cg6;
            const y0 = y6[rO]!;
            for (let a = 0; a < o0; a++, r++) {
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
                nextT = tp < nT ? ticketRanks[tp]! : -1;
              }
              const t = s / 24 + alpha7 * c7;
              if (keepTotals) totals[r] = t;
              else exact[t]!++;
              if (t < min) min = t;
              if (t >= max) {
                const lk = lexKey(a, o);
                if (t > max || lk < worstLex) {
                  max = t;
                  worstRank = r;
                  worstLex = lk;
                }
              }
              if (t >= limit) {
                shift = widen(hist, shift, t);
                invWidth = 2 ** -shift;
                limit = HIST_BINS * 2 ** shift;
              }
              hist[Math.floor(t * invWidth)]!++;
              if (t >= lo && t <= hi) {
                qualified++;
                if (out !== null) out.add(r, a, c7, t, rO, b0, b1, b2, b3, b4, b5, o);
                if (t >= floor) floor = best.offer(t, lexKey(a, o), r);
              }
            }
          }
        }
      }
    }
  }
  st.min = min;
  st.max = max;
  st.worstRank = worstRank;
  st.worstLex = worstLex;
  st.qualified = qualified;
  st.shift = shift;
  st.draws += BINOM[g]![6]!;
}

/**
 * Scans every draw whose largest number is one of `tops` (0-based), in the order given. Qualifying
 * draws get their exact winners per match type and are handed to `sink.chunk` per top number;
 * `sink.progress` is called after each top number (progress / cancellation point). With
 * `p.exactUpTo`, the totals are counted into `exactInto` when given (a caller that scans in several
 * calls), else into a new array.
 */
export function scanTops(
  tables: Tables,
  p: ScanParams,
  tops: readonly number[],
  sink: ScanSink,
  exactInto?: Uint32Array,
): ScanStats {
  const upTo = p.exactUpTo ?? 0;
  const exact = upTo > 0 ? (exactInto ?? new Uint32Array(upTo + 1)) : new Uint32Array(0);
  const st = new RunningStats();
  const out = p.record ? new QualifyingWriter(tables, p.w, p.widths, sink) : null;
  const best = new TopDraws(p.top);
  const outer = new Int32Array(6);
  // counted into an array of its own, nothing recorded: the lean kernel
  if (upTo > 0 && !exactInto && out === null) {
    for (const g of tops) {
      if (g < 6) continue;
      scanTopCounted(
        g,
        tables.y6,
        tables.ticketRanks,
        tables.ticketMult,
        p.alpha7,
        p.lo,
        p.hi,
        st,
        best,
        outer,
        exact,
      );
      if (sink.progress(st.draws) === false) break;
    }
    countedStats(st, exact, p.lo, p.hi);
  } else {
    for (const g of tops) {
      if (g < 6) continue;
      out?.startTop(g);
      scanTop(
        g,
        tables.y6,
        tables.ticketRanks,
        tables.ticketMult,
        p.alpha7,
        p.lo,
        p.hi,
        st,
        out,
        best,
        outer,
        p.totals,
        exact,
      );
      out?.flush();
      if (sink.progress(st.draws) === false) break;
    }
  }
  return {
    draws: st.draws,
    qualified: st.qualified,
    min: st.min,
    max: st.max,
    worstRank: st.worstRank,
    worstLex: st.worstLex,
    hist: st.hist,
    shift: st.shift,
    top: best.list(),
    exact,
  };
}
