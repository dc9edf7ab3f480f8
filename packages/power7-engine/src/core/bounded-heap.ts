/**
 * The best `capacity` rows by (key, lex) ascending: a max-heap whose top is the worst kept row, in
 * parallel typed arrays (no objects per row).
 */
export class BoundedHeap {
  private readonly key: Float64Array;
  private readonly lex: Float64Array;
  private readonly rank: Float64Array;
  private readonly total: Float64Array;
  private readonly e: Float64Array;
  size = 0;
  constructor(readonly capacity: number) {
    this.key = new Float64Array(capacity + 1);
    this.lex = new Float64Array(capacity + 1);
    this.rank = new Float64Array(capacity + 1);
    this.total = new Float64Array(capacity + 1);
    this.e = new Float64Array((capacity + 1) * 5);
  }

  /** The key a row must beat (or tie with a smaller lex) once the heap is full. */
  worstKey(): number {
    return this.key[0]!;
  }

  offer(
    key: number,
    lex: number,
    rank: number,
    total: number,
    e3: number,
    e4: number,
    e5: number,
    e6: number,
    e7: number,
  ): void {
    if (this.size < this.capacity) {
      const at = this.size++;
      this.put(at, key, lex, rank, total, e3, e4, e5, e6, e7);
      this.siftUp(at);
      return;
    }
    const top = this.key[0]!;
    if (key > top || (key === top && lex >= this.lex[0]!)) return;
    this.put(0, key, lex, rank, total, e3, e4, e5, e6, e7);
    this.siftDown(0);
  }

  /** Every kept row, best first. */
  drainBestFirst(): { rank: number; total: number; e: number[] }[] {
    const out: { rank: number; total: number; e: number[] }[] = [];
    while (this.size > 0) {
      out.push({
        rank: this.rank[0]!,
        total: this.total[0]!,
        e: Array.from(this.e.subarray(0, 5)),
      });
      this.size--;
      if (this.size > 0) {
        this.swap(0, this.size);
        this.siftDown(0);
      }
    }
    return out.reverse();
  }

  private put(
    i: number,
    key: number,
    lex: number,
    rank: number,
    total: number,
    e3: number,
    e4: number,
    e5: number,
    e6: number,
    e7: number,
  ): void {
    this.key[i] = key;
    this.lex[i] = lex;
    this.rank[i] = rank;
    this.total[i] = total;
    const e = this.e;
    e[i * 5] = e3;
    e[i * 5 + 1] = e4;
    e[i * 5 + 2] = e5;
    e[i * 5 + 3] = e6;
    e[i * 5 + 4] = e7;
  }

  private worse(i: number, j: number): boolean {
    const a = this.key[i]!;
    const b = this.key[j]!;
    return a > b || (a === b && this.lex[i]! > this.lex[j]!);
  }

  private swap(i: number, j: number): void {
    swapIn(this.key, i, j);
    swapIn(this.lex, i, j);
    swapIn(this.rank, i, j);
    swapIn(this.total, i, j);
    const e = this.e;
    for (let k = 0; k < 5; k++) {
      const t = e[i * 5 + k]!;
      e[i * 5 + k] = e[j * 5 + k]!;
      e[j * 5 + k] = t;
    }
  }

  private siftDown(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.worse(l, m)) m = l;
      if (r < this.size && this.worse(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) return;
      this.swap(i, p);
      i = p;
    }
  }
}

function swapIn(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}
