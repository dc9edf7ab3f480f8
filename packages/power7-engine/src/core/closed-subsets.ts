import { BINOM, PICK, TICKET_RANK_TERMS, ticketRank } from './model';

/**
 * The closed k-subsets (k = 3..7) by colex rank: one byte each for k ≤ 6 (C(P,6) bytes at most:
 * 14 MB at P=49), one bit each for the 7-subsets (the draws themselves).
 */
export class ClosedSubsets {
  private readonly byK: Uint8Array[];
  private readonly sevens: Uint8Array;
  /** Per k, whether any k-subset is closed; and whether anything is. */
  private readonly closedK = new Uint8Array(8);
  any = false;
  /** Grows with every closing (a range closed-checked at this version needs no second look). */
  version = 0;

  constructor(pool: number) {
    this.byK = [0, 1, 2, 3, 4, 5, 6].map((k) =>
      k >= 3 ? new Uint8Array(BINOM[pool]![k]!) : new Uint8Array(0),
    );
    this.sevens = new Uint8Array(Math.ceil(BINOM[pool]![PICK]! / 8));
  }

  /** Closes the k-subsets of the set at sets[p..p+7) (k = 7: the set itself). */
  close(sets: Uint8Array, p: number, k: number): void {
    this.any = true;
    this.closedK[k] = 1;
    this.version++;
    if (k === 7) {
      const r = ticketRank(sets, p);
      this.sevens[r >>> 3] = this.sevens[r >>> 3]! | (1 << (r & 7));
      return;
    }
    const closed = this.byK[k]!;
    const idx = new Int32Array(k);
    for (let i = 0; i < k; i++) idx[i] = i;
    for (;;) {
      let r = 0;
      for (let i = 0; i < k; i++) r += TICKET_RANK_TERMS[sets[p + idx[i]!]! * 8 + i + 1]!;
      closed[r] = 1;
      let i = k - 1;
      while (i >= 0 && idx[i] === PICK - k + i) i--;
      if (i < 0) break;
      idx[i]!++;
      for (let j = i + 1; j < k; j++) idx[j] = idx[j - 1]! + 1;
    }
  }

  /**
   * Whether the set at sets[p..p+7) holds a closed subset: its 3-subsets first (the likeliest once
   * a draw is full), its 6-subsets and itself as `countSixSubsets` ranks them, the 4- and 5-subsets
   * only when some are closed (briefly, between a draw's 6- and 3-levels).
   */
  holds(sets: Uint8Array, p: number): boolean {
    const c = TICKET_RANK_TERMS;
    const { closedK } = this;
    const [, , , c3, c4, c5, c6] = this.byK as [
      never,
      never,
      never,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    if (closedK[3]) {
      for (let i0 = 0; i0 < 5; i0++) {
        const r1 = c[sets[p + i0]! * 8 + 1]!;
        for (let i1 = i0 + 1; i1 < 6; i1++) {
          const r2 = r1 + c[sets[p + i1]! * 8 + 2]!;
          for (let i2 = i1 + 1; i2 < 7; i2++) if (c3[r2 + c[sets[p + i2]! * 8 + 3]!]) return true;
        }
      }
    }
    if (closedK[6] || closedK[7]) {
      const v0 = sets[p]! * 8;
      const v1 = sets[p + 1]! * 8;
      const v2 = sets[p + 2]! * 8;
      const v3 = sets[p + 3]! * 8;
      const v4 = sets[p + 4]! * 8;
      const v5 = sets[p + 5]! * 8;
      const v6 = sets[p + 6]! * 8;
      const k0 = c[v0 + 1]!;
      const k01 = k0 + c[v1 + 2]!;
      const k012 = k01 + c[v2 + 3]!;
      const k0123 = k012 + c[v3 + 4]!;
      const k01234 = k0123 + c[v4 + 5]!;
      const j6 = c[v6 + 6]!;
      const j56 = c[v5 + 5]! + j6;
      const j456 = c[v4 + 4]! + j56;
      const j3456 = c[v3 + 3]! + j456;
      const j23456 = c[v2 + 2]! + j3456;
      const r7 = k01234 + c[v5 + 6]! + c[v6 + 7]!;
      if (closedK[7] && this.sevens[r7 >>> 3]! & (1 << (r7 & 7))) return true;
      if (
        closedK[6] &&
        (c6[c[v1 + 1]! + j23456] ||
          c6[k0 + j23456] ||
          c6[k01 + j3456] ||
          c6[k012 + j456] ||
          c6[k0123 + j56] ||
          c6[k01234 + j6] ||
          c6[k01234 + c[v5 + 6]!])
      )
        return true;
    }
    if (!closedK[4] && !closedK[5]) return false;
    for (let i0 = 0; i0 < 4; i0++) {
      const r1 = c[sets[p + i0]! * 8 + 1]!;
      for (let i1 = i0 + 1; i1 < 5; i1++) {
        const r2 = r1 + c[sets[p + i1]! * 8 + 2]!;
        for (let i2 = i1 + 1; i2 < 6; i2++) {
          const r3 = r2 + c[sets[p + i2]! * 8 + 3]!;
          for (let i3 = i2 + 1; i3 < 7; i3++) {
            const r4 = r3 + c[sets[p + i3]! * 8 + 4]!;
            if (c4[r4]) return true;
            for (let i4 = i3 + 1; i4 < 7; i4++) if (c5[r4 + c[sets[p + i4]! * 8 + 5]!]) return true;
          }
        }
      }
    }
    return false;
  }
}
