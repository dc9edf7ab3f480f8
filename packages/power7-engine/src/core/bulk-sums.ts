import { BINOM, PICK, TICKET_RANK_TERMS, ticketRank } from './model';
import { allTops, divideCounts, pushDown } from './subset-layers';
import { countedPayout, subsetWeights } from './subset-payout';

/**
 * What a long range of tickets pays each hot draw, the way the analysis counts (ADR 029): the
 * range's 6-subsets counted (7 increments a ticket), pushed down to the 5-, 4- and 3-subsets once
 * (~12M sequential additions at P=35), and each hot draw's 98 subsets read. For a range of more
 * than ~65,000 tickets not refused at P=35 this is cheaper than `RangeSums`' ~90 increments a
 * ticket (`pays`).
 *
 * A draw's payout is Σ_{k=3..6} β_k·n_k + β_7·(copies of it), β solving Σ_k β_k·C(m,k) = w_m.
 */
export class BulkSums {
  private readonly c: Uint32Array[];
  private readonly beta: Float64Array;
  /** A bit per 7-set rank held by a hot draw; the copies of each counted. */
  private readonly hotBits: Uint8Array;
  private readonly hotByRank = new Map<number, number>();
  private readonly copies = new Map<number, number>();

  constructor(
    private readonly tickets: Uint8Array,
    private readonly hot: Uint8Array,
    private readonly pool: number,
    w: ArrayLike<number>,
  ) {
    this.c = [0, 1, 2, 3, 4, 5, 6].map((k) =>
      k >= 3 ? new Uint32Array(BINOM[pool]![k]!) : new Uint32Array(0),
    );
    this.beta = subsetWeights(w, PICK);
    this.hotBits = new Uint8Array(Math.ceil(BINOM[pool]![PICK]! / 8));
    for (let d = 0; d < hot.length / PICK; d++) {
      const r = ticketRank(hot, d * PICK);
      this.hotBits[r >>> 3]! |= 1 << (r & 7);
      this.hotByRank.set(r, d);
    }
  }

  /**
   * Whether counting `tickets` tickets this way costs less than `RangeSums`: ~400 ns a ticket
   * saved against ~16 ns per 6-set of the pool pushed down and cleared (measured at P=35: past
   * ~65,000 tickets).
   */
  static pays(tickets: number, pool: number): boolean {
    return tickets * 400 > BINOM[pool]![6]! * 16;
  }

  /** Counts the tickets of [from, to) whose `skip` byte is 0, and works out the smaller tables. */
  count(from: number, to: number, skip: Uint8Array): void {
    const { tickets, hotBits } = this;
    const c6 = this.c[6]!;
    const c = TICKET_RANK_TERMS;
    for (let t = from, p = from * PICK; t < to; t++, p += PICK) {
      if (skip[t]) continue;
      // as `countSixSubsets`: dropping element j shifts the later ones down one position
      const v0 = tickets[p]! * 8;
      const v1 = tickets[p + 1]! * 8;
      const v2 = tickets[p + 2]! * 8;
      const v3 = tickets[p + 3]! * 8;
      const v4 = tickets[p + 4]! * 8;
      const v5 = tickets[p + 5]! * 8;
      const v6 = tickets[p + 6]! * 8;
      const k0 = c[v0 + 1]!;
      const k1 = c[v1 + 2]!;
      const k2 = c[v2 + 3]!;
      const k3 = c[v3 + 4]!;
      const k4 = c[v4 + 5]!;
      const k5 = c[v5 + 6]!;
      const j1 = c[v1 + 1]!;
      const j2 = c[v2 + 2]!;
      const j3 = c[v3 + 3]!;
      const j4 = c[v4 + 4]!;
      const j5 = c[v5 + 5]!;
      const j6 = c[v6 + 6]!;
      c6[j1 + j2 + j3 + j4 + j5 + j6]!++;
      c6[k0 + j2 + j3 + j4 + j5 + j6]!++;
      c6[k0 + k1 + j3 + j4 + j5 + j6]!++;
      c6[k0 + k1 + k2 + j4 + j5 + j6]!++;
      c6[k0 + k1 + k2 + k3 + j5 + j6]!++;
      c6[k0 + k1 + k2 + k3 + k4 + j6]!++;
      c6[k0 + k1 + k2 + k3 + k4 + k5]!++;
      const r = k0 + k1 + k2 + k3 + k4 + k5 + c[v6 + 7]!;
      if (hotBits[r >>> 3]! & (1 << (r & 7))) {
        const d = this.hotByRank.get(r)!;
        this.copies.set(d, (this.copies.get(d) ?? 0) + 1);
      }
    }
    const [, , , c3, c4, c5] = this.c as [
      never,
      never,
      never,
      Uint32Array,
      Uint32Array,
      Uint32Array,
    ];
    const { pool } = this;
    pushDown(c6, c5, 5, pool, allTops(pool, 6));
    divideCounts(c5, 5);
    pushDown(c5, c4, 4, pool, allTops(pool, 5));
    divideCounts(c4, 4);
    pushDown(c4, c3, 3, pool, allTops(pool, 4));
    divideCounts(c3, 3);
  }

  /** What the counted tickets pay hot draw d. */
  sumOf(d: number): number {
    const subsets = countedPayout(this.hot, d * PICK, this.c, this.beta, PICK);
    return subsets + this.beta[PICK]! * (this.copies.get(d) ?? 0);
  }

  /** Forgets the counted tickets. */
  clear(): void {
    for (const t of this.c) t.fill(0);
    this.copies.clear();
  }
}
