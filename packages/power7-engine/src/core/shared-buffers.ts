/**
 * SharedArrayBuffers of the table build, reused from one analysis to the next.
 *
 * Why: a SharedArrayBuffer is freed only when every thread that saw it has garbage-collected its
 * handle, and an idle scan worker may not collect for many analyses. Fresh tables per analysis then
 * pile up (~170 MB per analysis at P=45) until those collections happen; handing the same buffers to
 * the next analysis keeps memory flat instead. Only the last finished analysis' buffers are kept.
 */
export class SharedBufferPool {
  private readonly spare = new Map<number, SharedArrayBuffer[]>();
  private spareBytes = 0;

  /** A buffer of `bytes` bytes, from the spares when one fits; zero-filled when `zeroed`. */
  take(bytes: number, zeroed: boolean): SharedArrayBuffer {
    const reused = this.spare.get(bytes)?.pop();
    if (!reused) return new SharedArrayBuffer(bytes);
    this.spareBytes -= bytes;
    if (zeroed) new Uint8Array(reused).fill(0);
    return reused;
  }

  /** Takes back the buffers of a finished analysis; they replace the earlier spares. */
  give(buffers: SharedArrayBuffer[]): void {
    this.clear();
    for (const b of buffers) {
      const list = this.spare.get(b.byteLength) ?? [];
      list.push(b);
      this.spare.set(b.byteLength, list);
      this.spareBytes += b.byteLength;
    }
  }

  /** Forgets every spare buffer (e.g. on shutdown). */
  clear(): void {
    this.spare.clear();
    this.spareBytes = 0;
  }

  get bytesSpare(): number {
    return this.spareBytes;
  }
}

/** The buffers one analysis takes from a pool, given back together when it finishes cleanly. */
export class SharedBufferLease {
  private readonly taken: SharedArrayBuffer[] = [];
  constructor(private readonly pool: SharedBufferPool | null) {}

  u32(n: number, zeroed = true): Uint32Array {
    return new Uint32Array(this.take(Math.max(4, n * 4), zeroed));
  }

  f64(n: number): Float64Array {
    return new Float64Array(this.take(Math.max(8, n * 8), false));
  }

  copy(bytes: Uint8Array): Uint8Array {
    const out = new Uint8Array(this.take(Math.max(1, bytes.length), false), 0, bytes.length);
    out.set(bytes);
    return out;
  }

  /** Takes `array`'s buffer into this lease (made elsewhere, e.g. while a file was read), to be given back with the rest. */
  adopt(array: Uint32Array): void {
    if (array.buffer instanceof SharedArrayBuffer && array.byteLength === array.buffer.byteLength)
      this.taken.push(array.buffer);
  }

  /** Gives every buffer back; the caller must be sure no thread still writes to them. */
  release(): void {
    this.pool?.give(this.taken.splice(0));
  }

  private take(bytes: number, zeroed: boolean): SharedArrayBuffer {
    const b = this.pool ? this.pool.take(bytes, zeroed) : new SharedArrayBuffer(bytes);
    this.taken.push(b);
    return b;
  }
}

/** The process-wide pool the analyses share. */
export const tableBufferPool = new SharedBufferPool();
