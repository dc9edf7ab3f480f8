import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** Seeded PRNG (mulberry32): same seed, same data. */
export function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Distribution = 'uniform' | 'popular';

/**
 * `count` tickets of 7 ascending numbers in 1..pool. `popular`: people favour low numbers (birthdays)
 * and a few lucky ones — number weights fall off above 31 and 7, 13, 21 are three times as likely.
 */
export function generateTickets(
  count: number,
  pool: number,
  dist: Distribution,
  seed = 42,
): Uint8Array {
  const rnd = mulberry32(seed);
  const weights = new Float64Array(pool + 1);
  for (let n = 1; n <= pool; n++) {
    weights[n] = dist === 'uniform' ? 1 : (n <= 31 ? 3 : 1) * ([7, 13, 21].includes(n) ? 3 : 1);
  }
  const cum = new Float64Array(pool + 1);
  for (let n = 1; n <= pool; n++) cum[n] = cum[n - 1]! + weights[n]!;
  const total = cum[pool]!;
  const out = new Uint8Array(count * 7);
  const tmp: number[] = [];
  for (let t = 0; t < count; t++) {
    tmp.length = 0;
    while (tmp.length < 7) {
      const x = rnd() * total;
      let lo = 1;
      let hi = pool;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cum[mid]! > x) hi = mid;
        else lo = mid + 1;
      }
      if (!tmp.includes(lo)) tmp.push(lo);
    }
    tmp.sort((a, b) => a - b);
    out.set(tmp, t * 7);
  }
  return out;
}

/** Writes tickets as a customer CSV (customer_id,name,phone,n1..n7), ~45 bytes per row. */
export async function writeCustomerCsv(path: string, tickets: Uint8Array): Promise<void> {
  const ws = createWriteStream(path);
  ws.write('customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7\n');
  const count = tickets.length / 7;
  let buf: string[] = [];
  for (let t = 0; t < count; t++) {
    const p = t * 7;
    buf.push(
      `C${t + 1},Customer ${t + 1},+1555${String(t).padStart(7, '0')},${tickets[p]},${tickets[p + 1]},${tickets[p + 2]},${tickets[p + 3]},${tickets[p + 4]},${tickets[p + 5]},${tickets[p + 6]}\n`,
    );
    if (buf.length === 10000) {
      if (!ws.write(buf.join(''))) await once(ws, 'drain');
      buf = [];
    }
  }
  ws.write(buf.join(''));
  ws.end();
  await once(ws, 'finish');
}
