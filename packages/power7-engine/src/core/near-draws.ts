import { BINOM, PICK, TICKET_RANK_TERMS, ticketRank } from './model';
import type { DrawTotals } from './book-types';

/**
 * The draws near a ticket, for the live book (`core/book.ts`): those sharing 5, 6 or 7 of its
 * numbers (18,376 at P=49, 8,135 at P=35), walked by colex rank; scratch arrays reused, nothing
 * allocated per ticket.
 */
export class NearDraws {
  private readonly complement: Uint8Array;
  private readonly high = new Uint8Array(PICK);
  private readonly kept = new Uint8Array(PICK);
  /** Six ascending numbers and the prefix / suffix sums of their rank terms (`addToFives`). */
  private readonly six = new Uint8Array(6);
  private readonly low = new Float64Array(7);
  private readonly upper = new Float64Array(7);

  constructor(private readonly pool: number) {
    this.complement = new Uint8Array(pool - PICK);
  }

  /**
   * Calls `fn` for every draw sharing 6 or 7 numbers with ticket t (ascending), and 5 when
   * `fives`: its rank, the matches, and its numbers (a scratch array, valid during the call).
   */
  forEachHighMatch(
    t: Uint8Array,
    fives: boolean,
    fn: (rank: number, m: number, numbers: Uint8Array) => void,
  ): void {
    const { complement } = this;
    const c = this.fillComplement(t);
    const { high: d, kept } = this;
    fn(ticketRank(t, 0), 7, t);
    // 6 matches: one number of t swapped for one outside it
    for (let drop = 0; drop < PICK; drop++) {
      let k = 0;
      for (let i = 0; i < PICK; i++) if (i !== drop) kept[k++] = t[i]!;
      for (let x = 0; x < c; x++) {
        mergeInto(d, kept, 6, complement[x]!, 0);
        fn(ticketRank(d, 0), 6, d);
      }
    }
    if (!fives) return;
    // 5 matches: two swapped for two outside
    for (let a = 0; a < PICK - 1; a++) {
      for (let b = a + 1; b < PICK; b++) {
        let k = 0;
        for (let i = 0; i < PICK; i++) if (i !== a && i !== b) kept[k++] = t[i]!;
        for (let x = 0; x < c - 1; x++) {
          for (let y = x + 1; y < c; y++) {
            mergeInto(d, kept, 5, complement[x]!, complement[y]!);
            fn(ticketRank(d, 0), 5, d);
          }
        }
      }
    }
  }

  /**
   * Adds `delta` to the total of every draw sharing exactly 5 numbers with ticket t (ascending);
   * `reached(rank)` for each whose total is then ≥ `threshold` (a sale: delta > 0). At P=49 a sale
   * moves 18,081 such draws, the bulk of its cost: each is t less two numbers plus two others
   * x < y, and its colex rank is found from the six numbers it has before y is added — the terms of
   * the numbers below y keep their place, those above move up one — in three lookups instead of a
   * merge and seven.
   */
  addToFives(
    base: DrawTotals,
    t: Uint8Array,
    delta: number,
    threshold: number,
    reached: (rank: number) => void,
  ): void {
    const c = this.fillComplement(t);
    const { complement, kept, six, low, upper } = this;
    const terms = TICKET_RANK_TERMS;
    for (let a = 0; a < PICK - 1; a++) {
      for (let b = a + 1; b < PICK; b++) {
        let k = 0;
        for (let i = 0; i < PICK; i++) if (i !== a && i !== b) kept[k++] = t[i]!;
        for (let xi = 0; xi < c - 1; xi++) {
          mergeInto(six, kept, 5, complement[xi]!, 0);
          // low[j]: the terms of six[0..j) in places 1..j; upper[j]: those of six[j..6) one place up
          low[0] = 0;
          for (let i = 0; i < 6; i++) low[i + 1] = low[i]! + terms[six[i]! * 8 + i + 1]!;
          upper[6] = 0;
          for (let i = 5; i >= 0; i--) upper[i] = upper[i + 1]! + terms[six[i]! * 8 + i + 2]!;
          let j = 0;
          for (let yi = xi + 1; yi < c; yi++) {
            const y = complement[yi]!;
            while (j < 6 && six[j]! < y) j++;
            const rank = low[j]! + terms[y * 8 + j + 1]! + upper[j]!;
            const total = base[rank]! + delta;
            base[rank] = total;
            if (delta > 0 && total >= threshold) reached(rank);
          }
        }
      }
    }
  }

  /** The pool's numbers outside ticket t (ascending) into `complement`; how many. */
  private fillComplement(t: Uint8Array): number {
    const { complement, pool } = this;
    let c = 0;
    for (let n = 1, i = 0; n <= pool; n++) {
      if (i < PICK && t[i] === n) i++;
      else complement[c++] = n;
    }
    return c;
  }
}

/**
 * Copies of each 5-subset among some tickets (those sold since a fold), and the most of any: a
 * draw shares exactly 5 numbers with at most 21 × that many of them (one of its 21 5-subsets
 * each). The most is kept as an upper bound when a ticket is taken out again. 4 B per 5-subset:
 * 7.6 MB at P=49.
 */
export class FiveSubsetCounts {
  private counts: Uint32Array;
  most = 0;

  constructor(pool: number) {
    this.counts = new Uint32Array(BINOM[pool]![5]!);
  }

  get bytes(): number {
    return this.counts.byteLength;
  }

  /** Counts ticket t's 21 5-subsets in (`delta` 1) or out (-1). */
  count(t: Uint8Array, delta: number): void {
    const terms = TICKET_RANK_TERMS;
    const { counts } = this;
    for (let a = 0; a < PICK - 1; a++) {
      for (let b = a + 1; b < PICK; b++) {
        let rank = 0;
        for (let i = 0, k = 1; i < PICK; i++)
          if (i !== a && i !== b) rank += terms[t[i]! * 8 + k++]!;
        const copies = counts[rank]! + delta;
        counts[rank] = copies;
        if (copies > this.most) this.most = copies;
      }
    }
  }

  clear(): void {
    if (this.most > 0) this.counts.fill(0);
    this.most = 0;
  }

  clone(): FiveSubsetCounts {
    const copy = Object.create(FiveSubsetCounts.prototype) as FiveSubsetCounts;
    copy.counts = this.counts.slice();
    copy.most = this.most;
    return copy;
  }
}

/** Every draw in colex order: its rank and numbers (a scratch array, valid during the call). */
export function forEachDraw(pool: number, fn: (rank: number, numbers: Uint8Array) => void): void {
  const n = new Uint8Array(PICK);
  let r = 0;
  for (let g = 7; g <= pool; g++) {
    n[6] = g;
    for (let f = 6; f < g; f++) {
      n[5] = f;
      for (let e = 5; e < f; e++) {
        n[4] = e;
        for (let d = 4; d < e; d++) {
          n[3] = d;
          for (let c = 3; c < d; c++) {
            n[2] = c;
            for (let b = 2; b < c; b++) {
              n[1] = b;
              for (let a = 1; a < b; a++, r++) {
                n[0] = a;
                fn(r, n);
              }
            }
          }
        }
      }
    }
  }
}

/** `out` = the `k` ascending numbers of `kept` with x (and y > x when not 0) merged in. */
function mergeInto(out: Uint8Array, kept: Uint8Array, k: number, x: number, y: number): void {
  let i = 0;
  let o = 0;
  while (i < k && kept[i]! < x) out[o++] = kept[i++]!;
  out[o++] = x;
  if (y) {
    while (i < k && kept[i]! < y) out[o++] = kept[i++]!;
    out[o++] = y;
  }
  while (i < k) out[o++] = kept[i++]!;
}
