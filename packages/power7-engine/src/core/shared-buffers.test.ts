import { describe, expect, it } from 'vitest';
import { SharedBufferLease, SharedBufferPool } from './shared-buffers';

describe('SharedBufferPool', () => {
  it('hands a released buffer to the next lease, zero-filled when asked', () => {
    const pool = new SharedBufferPool();
    const first = new SharedBufferLease(pool);
    const a = first.u32(1000);
    a.fill(7);
    const f = first.f64(10);
    first.release();
    expect(pool.bytesSpare).toBe(4000 + 80);

    const second = new SharedBufferLease(pool);
    const b = second.u32(1000);
    expect(b.buffer).toBe(a.buffer);
    expect(b.every((x) => x === 0)).toBe(true);
    expect(second.f64(10).buffer).toBe(f.buffer);
    expect(second.u32(5).buffer).not.toBe(a.buffer); // no spare of that size: a new one
    expect(pool.bytesSpare).toBe(0);
  });

  it('keeps only the last finished analysis’ buffers as spares', () => {
    const pool = new SharedBufferPool();
    const one = new SharedBufferLease(pool);
    one.u32(100);
    one.u32(100);
    one.release();
    const two = new SharedBufferLease(pool);
    const kept = two.u32(300);
    two.release();
    expect(pool.bytesSpare).toBe(1200);
    expect(new SharedBufferLease(pool).u32(300).buffer).toBe(kept.buffer);
  });

  it('without a pool, every buffer is new and nothing is kept', () => {
    const lease = new SharedBufferLease(null);
    const copy = lease.copy(Uint8Array.from([1, 2, 3]));
    expect(Array.from(copy)).toEqual([1, 2, 3]);
    expect(copy.buffer).toBeInstanceOf(SharedArrayBuffer);
    lease.release();
  });
});
