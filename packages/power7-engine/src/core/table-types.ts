import type { GroupOp } from './distribution-group';
import type { MatchesOp } from './matches';
import type { LessOp } from './totals-less';

/**
 * Dense count tables indexed by colex rank, shared with the scan workers (SharedArrayBuffer).
 *
 * c[k][rank(S)] = number of tickets containing the k-set S (k = 3..6); the 7-sets are the distinct
 * tickets themselves (`ticketRanks` ascending, `ticketMult` their multiplicities). `y6` is the folded,
 * payout-weighted zeta transform on the 6-sets: for a draw D,
 *   24 · total(D) = Σ over the seven 6-subsets U of D of y6[U]  +  24 · α_7 · c7(D).
 */
export interface Tables {
  pool: number;
  c3: Uint32Array;
  c4: Uint32Array;
  c5: Uint32Array;
  c6: Uint32Array;
  y6: Float64Array;
  ticketRanks: Uint32Array;
  ticketMult: Uint32Array;
  /** max over k-sets of c_k, index k = 3..7 (bounds the per-tier counts). */
  maxCount: number[];
  /**
   * Dense mode only (many qualifying draws): per-tier transforms on the 6-sets, z_j(U) = (6-j)!·N_j(U)
   * for j = 3, 4, 5, and c6 itself, interleaved per 6-set as [z3, z4, z5, c6] at 4·rank(U): a draw's
   * N_j is 7 loads / (7-j)!, from 7 memory streams for all four tiers.
   */
  tiers?: Uint32Array;
}

/**
 * The part of the tables that depends on the tickets and the pool only (not on payouts or budget), so
 * an analysis of the same tickets with other payouts can take them over (`foldTables`).
 */
export type CountTables = Omit<Tables, 'y6' | 'tiers'>;

/**
 * The first step of `countTables` done while a file was read (`countWhileReading`): every ticket's
 * 6-subsets counted into one of the partial tables `c6` (their sum is the file's c6), and every
 * ticket's colex rank, in file order (unsorted).
 */
export interface CountedTickets {
  pool: number;
  c6: Uint32Array[];
  ranks: Uint32Array;
}

/**
 * One piece of the table build. Every piece reads and writes only the arrays it is given, so the
 * pieces of one step can run on several threads at once (the arrays are SharedArrayBuffer-backed; the
 * tickets are copied to a worker once per step).
 */
export type BuildOp =
  /**
   * Colex-rank the 6-subsets of tickets [from, to) and count them into `c6`; with `ranks`, also the
   * tickets' own colex ranks, sorted ascending into `ranks` (to − from long).
   */
  | {
      op: 'count6';
      tickets: Uint8Array;
      from: number;
      to: number;
      c6: Uint32Array;
      ranks?: Uint32Array;
    }
  /** Sort ticket ranks ascending in place (`radixSort27`). */
  | { op: 'sort'; ranks: Uint32Array }
  /** The distinct tickets whose rank is in one value range (see `DistinctPiece`). */
  | DistinctPiece
  /** Scatter the (k+1)-set counts whose largest number is in `tops` onto their k-subsets. */
  | { op: 'pushDown'; from: Uint32Array; to: Uint32Array; k: number; pool: number; tops: number[] }
  /** One zeta layer (see `zetaLayer`) for the k-sets whose largest number is in `tops`. */
  | {
      op: 'zeta';
      prev: Float64Array | Uint32Array;
      c: Uint32Array;
      beta: number;
      out: Float64Array | Uint32Array;
      /** Where set r's value goes: out[r·stride + offset] (default 1, 0). */
      stride?: number;
      offset?: number;
      k: number;
      pool: number;
      tops: number[];
    }
  /** After the scan: the draws of some top numbers grouped by histogram bin (`distribution.ts`). */
  | GroupOp
  /** Exposure: some combinations' matches with the draws over a line (`matches.ts`). */
  | MatchesOp
  /** A live book's opening: the session's totals less the refused tickets' (`totals-less.ts`). */
  | LessOp;

/**
 * The distinct ranks in [lo, hi) of the sorted runs ranks[bounds[i], bounds[i+1]), merged, with their
 * multiplicities, written to `outRanks` / `outMult` from `at` on (`at` = how many ranks of all runs
 * lie below `lo`, so the pieces never overlap); the piece's count of distinct ranks and its largest
 * multiplicity go to found[2·piece] and found[2·piece + 1].
 */
export interface DistinctPiece {
  op: 'distinct';
  ranks: Uint32Array;
  bounds: number[];
  lo: number;
  hi: number;
  at: number;
  outRanks: Uint32Array;
  outMult: Uint32Array;
  found: Uint32Array;
  piece: number;
}

/** Runs the pieces of one build step, possibly in parallel; resolves when all are done. */
export type BuildRunner = (ops: BuildOp[]) => Promise<void>;

/** Where the build runs: `parts` pieces per parallel step, handed to `run`. */
export interface BuildPlan {
  parts: number;
  run: BuildRunner;
}
