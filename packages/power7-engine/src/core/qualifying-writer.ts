import { invariant } from './errors';
import { BINOM } from './model';
import type { CountColumn, CountWidth, ScanSink } from './scan';
import type { Tables } from './table-types';

const POPCOUNT5 = new Uint8Array(32);
for (let m = 1; m < 32; m++) POPCOUNT5[m] = POPCOUNT5[m >> 1]! + (m & 1);

// Subsets of a 5-set by bitmask, grouped by size, precomputed once.
const MASKS5_BY_SIZE: Uint8Array[] = (() => {
  const lists: number[][] = [[], [], [], [], [], []];
  for (let mask = 1; mask < 32; mask++) lists[POPCOUNT5[mask]!]!.push(mask);
  return lists.map((l) => Uint8Array.from(l));
})();

/**
 * Sparse per-tier counting: for D = {a} ∪ O, N_j(D) = N_j(O) + Σ over the (j−1)-subsets R of O of
 * c_j({a} ∪ R), and rank({a} ∪ R) = a + (rank of R counted from position 2). `SR_AT[j]` is where the
 * 56 shifted ranks of group j (j = 3..6) start; within a group first the R without o0 (from the outer
 * five numbers Q = O \ {o0}, shared by every O of Q), then the R with o0.
 */
const SR_AT = [0, 0, 0, 0, 15, 35, 50, 56];

/**
 * Buffers the qualifying draws column-wise in fixed-size chunks and computes their exact winners per
 * match type. A full chunk is handed over whole (transferred, no copy); only the last, partial chunk
 * of a top number is copied to its length.
 */
export class QualifyingWriter {
  private static readonly CHUNK = 1 << 18;
  private ranks: Uint32Array;
  private e3: CountColumn;
  private e4: CountColumn;
  private e5: CountColumn;
  private e6: CountColumn;
  private e7: CountColumn;
  private len = 0;
  private seq = 0;
  private g = -1;

  // per-tier tables
  private readonly dense: boolean;
  private readonly c3: Uint32Array;
  private readonly c4: Uint32Array;
  private readonly c5: Uint32Array;
  private readonly c6: Uint32Array;
  /** c3..c6 by subset size (index 3..6; lower indexes unused). */
  private readonly countsBySize: Uint32Array[];
  private readonly tiers: Uint32Array;
  private readonly w: Float64Array;

  // sparse mode, cached per Q = O \ {o0} (key: its rank base b0) and per O (key: its rank)
  private qKey = -1;
  private oKey = -1;
  /** Σ over the j-subsets of Q of c_j (j = 3..5). */
  private readonly nQ = new Float64Array(7);
  /** Ranks of the subsets of Q counted from position 3, by group j: the (j−2)-subsets. */
  private readonly qFrom3 = new Float64Array(30);
  /** N_j(O), j = 3..6. */
  private readonly nO = new Float64Array(7);
  /** Shifted ranks of the (j−1)-subsets of O, grouped by j (see SR_AT). */
  private readonly sr = new Float64Array(56);
  private readonly rk = new Float64Array(32);
  private readonly rk2 = new Float64Array(32);
  private readonly rk3 = new Float64Array(32);

  constructor(
    tables: Tables,
    w: number[],
    private readonly widths: CountWidth[],
    private readonly sink: ScanSink,
  ) {
    this.dense = tables.tiers !== undefined;
    this.c3 = tables.c3;
    this.c4 = tables.c4;
    this.c5 = tables.c5;
    this.c6 = tables.c6;
    this.countsBySize = [
      tables.c3,
      tables.c3,
      tables.c3,
      tables.c3,
      tables.c4,
      tables.c5,
      tables.c6,
    ];
    this.tiers = tables.tiers ?? tables.c6;
    this.w = Float64Array.from(w);
    this.ranks = new Uint32Array(QualifyingWriter.CHUNK);
    this.e3 = this.column(0);
    this.e4 = this.column(1);
    this.e5 = this.column(2);
    this.e6 = this.column(3);
    this.e7 = this.column(4);
  }

  private column(i: number): CountColumn {
    const n = QualifyingWriter.CHUNK;
    const width = this.widths[i];
    return width === 1 ? new Uint8Array(n) : width === 2 ? new Uint16Array(n) : new Uint32Array(n);
  }

  startTop(g: number): void {
    this.g = g;
    this.seq = 0;
    this.qKey = -1;
    this.oKey = -1;
  }

  /**
   * Records the qualifying draw {a} ∪ O of colex rank `r`, O = outer[0..5] (rank `rO` among the
   * 6-sets), `b0..b5 + a` the ranks of its other six 6-subsets, `t` its folded total.
   */
  add(
    r: number,
    a: number,
    c7: number,
    t: number,
    rO: number,
    b0: number,
    b1: number,
    b2: number,
    b3: number,
    b4: number,
    b5: number,
    outer: Int32Array,
  ): void {
    let n3: number;
    let n4: number;
    let n5: number;
    let n6: number;
    if (this.dense) {
      // N_j(D) from the interleaved per-tier 6-set transforms [z3, z4, z5, c6]: 7 streams
      const z = this.tiers;
      const i0 = 4 * rO;
      const i1 = 4 * (b0 + a);
      const i2 = 4 * (b1 + a);
      const i3 = 4 * (b2 + a);
      const i4 = 4 * (b3 + a);
      const i5 = 4 * (b4 + a);
      const i6 = 4 * (b5 + a);
      n3 = (z[i0]! + z[i1]! + z[i2]! + z[i3]! + z[i4]! + z[i5]! + z[i6]!) / 24;
      n4 =
        (z[i0 + 1]! + z[i1 + 1]! + z[i2 + 1]! + z[i3 + 1]! + z[i4 + 1]! + z[i5 + 1]! + z[i6 + 1]!) /
        6;
      n5 =
        (z[i0 + 2]! + z[i1 + 2]! + z[i2 + 2]! + z[i3 + 2]! + z[i4 + 2]! + z[i5 + 2]! + z[i6 + 2]!) /
        2;
      n6 = z[i0 + 3]! + z[i1 + 3]! + z[i2 + 3]! + z[i3 + 3]! + z[i4 + 3]! + z[i5 + 3]! + z[i6 + 3]!;
    } else {
      // ~56 lookups: the sums over subsets of O once per O, then the subsets containing a
      if (this.oKey !== rO) this.prepareOuter(rO, b0, outer);
      const sr = this.sr;
      const nO = this.nO;
      const c3 = this.c3;
      const c4 = this.c4;
      const c5 = this.c5;
      const c6 = this.c6;
      n3 = nO[3]!;
      for (let q = 0; q < 15; q++) n3 += c3[sr[q]! + a]!;
      n4 = nO[4]!;
      for (let q = 15; q < 35; q++) n4 += c4[sr[q]! + a]!;
      n5 = nO[5]!;
      for (let q = 35; q < 50; q++) n5 += c5[sr[q]! + a]!;
      n6 = nO[6]!;
      for (let q = 50; q < 56; q++) n6 += c6[sr[q]! + a]!;
    }
    const e7 = c7;
    const e6 = n6 - 7 * e7;
    const e5 = n5 - 6 * e6 - 21 * e7;
    const e4 = n4 - 5 * e5 - 15 * e6 - 35 * e7;
    const e3 = n3 - 4 * e4 - 10 * e5 - 20 * e6 - 35 * e7;
    const w = this.w;
    invariant(
      w[3]! * e3 + w[4]! * e4 + w[5]! * e5 + w[6]! * e6 + w[7]! * e7 === t,
      'per-tier counts disagree with the folded total',
    );
    const len = this.len;
    this.ranks[len] = r;
    this.e3[len] = e3;
    this.e4[len] = e4;
    this.e5[len] = e5;
    this.e6[len] = e6;
    this.e7[len] = e7;
    this.len = len + 1;
    if (this.len === QualifyingWriter.CHUNK) this.flush();
  }

  /** The sums and shifted ranks over the subsets of O = {o0} ∪ Q (Q's part cached across its Os). */
  private prepareOuter(rO: number, b0: number, outer: Int32Array): void {
    this.oKey = rO;
    if (this.qKey !== b0) this.prepareQ(b0, outer);
    const { sr, nO, nQ, qFrom3 } = this;
    const o0 = outer[0]!;
    const from2 = (o0 * (o0 - 1)) / 2; // C(o0, 2): o0 at position 2
    // subsets with o0: rank = o0 + (the rest from position 2); shifted = C(o0,2) + (rest from 3)
    let t = 0;
    for (let j = 3; j <= 6; j++) {
      // the group's first C(5, j−1) entries leave o0 out (prepareQ), the rest hold it
      const withO0At = SR_AT[j]! + MASKS5_BY_SIZE[j - 1]!.length;
      const tab = this.countsBySize[j]!;
      let sum = nQ[j]!; // nQ[6] stays 0: Q has no 6-subset
      for (let i = SR_AT[j]!; i < withO0At; i++) sum += tab[o0 + sr[i]!]!;
      nO[j] = sum;
      for (let i = withO0At; i < SR_AT[j + 1]!; i++) sr[i] = from2 + qFrom3[t++]!;
    }
  }

  /** Ranks of the 31 subsets of Q = outer[1..5] counted from positions 1, 2 and 3. */
  private prepareQ(b0: number, outer: Int32Array): void {
    this.qKey = b0;
    const { rk, rk2, rk3, sr, nQ, qFrom3 } = this;
    for (let mask = 1; mask < 32; mask++) {
      const hb = 31 - Math.clz32(mask);
      const low = mask ^ (1 << hb);
      const pos = POPCOUNT5[low]!;
      const row = BINOM[outer[hb + 1]!]!;
      rk[mask] = rk[low]! + row[pos + 1]!;
      rk2[mask] = rk2[low]! + row[pos + 2]!;
      rk3[mask] = rk3[low]! + row[pos + 3]!;
    }
    let t = 0;
    for (let j = 3; j <= 6; j++) {
      if (j <= 5) {
        const tab = this.countsBySize[j]!;
        const ofSize = MASKS5_BY_SIZE[j]!;
        let sum = 0;
        for (let i = 0; i < ofSize.length; i++) sum += tab[rk[ofSize[i]!]!]!;
        nQ[j] = sum;
      }
      // group j: the (j−1)-subsets of Q from position 2, then the (j−2)-subsets from position 3
      const without = MASKS5_BY_SIZE[j - 1]!;
      let i = SR_AT[j]!;
      for (let k = 0; k < without.length; k++) sr[i++] = rk2[without[k]!]!;
      const withO0 = MASKS5_BY_SIZE[j - 2]!;
      for (let k = 0; k < withO0.length; k++) qFrom3[t++] = rk3[withO0[k]!]!;
    }
  }

  /** Hands over the buffered draws of the current top number (if any). */
  flush(): void {
    const len = this.len;
    if (len === 0) return;
    const full = len === QualifyingWriter.CHUNK;
    const cols = [this.e3, this.e4, this.e5, this.e6, this.e7];
    this.sink.chunk({
      g: this.g,
      seq: this.seq++,
      length: len,
      ranks: full ? this.ranks : this.ranks.slice(0, len),
      counts: full ? cols : cols.map((c) => c.slice(0, len)),
    });
    if (full) {
      this.ranks = new Uint32Array(QualifyingWriter.CHUNK);
      this.e3 = this.column(0);
      this.e4 = this.column(1);
      this.e5 = this.column(2);
      this.e6 = this.column(3);
      this.e7 = this.column(4);
    }
    this.len = 0;
  }
}
