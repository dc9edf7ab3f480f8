import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCustomerFile } from './customer-file';
import type { RejectedRow } from './errors';
import { readCsvInParallel } from './parallel-read';
import { closeScanWorkers } from './workers';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-parallel-'));
});
afterAll(async () => {
  await closeScanWorkers();
  await rm(dir, { recursive: true, force: true });
});

let fileNo = 0;
async function fileWith(content: string): Promise<string> {
  const path = join(dir, `f${fileNo++}.csv`);
  await writeFile(path, content);
  return path;
}

const POOL = 35;
const number = fc.integer({ min: 1, max: POOL }).map(String);
/** Rows of every kind the reader tells apart: valid, out of the pool, repeated, not numbers, short. */
const row = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .uniqueArray(fc.integer({ min: 1, max: POOL }), { minLength: 7, maxLength: 7 })
      .map((n) => n.join(',')),
  },
  {
    weight: 1,
    arbitrary: fc.array(number, { minLength: 6, maxLength: 6 }).map((n) => [...n, '36'].join(',')),
  },
  {
    weight: 1,
    arbitrary: fc.array(number, { minLength: 7, maxLength: 7 }).map((n) => n.join(',')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('a,b,c,d,e,f,g', '1,2,3', '', '1,2,3,4,5,6,7,', '1,2,3,4,5,6,7,8'),
  },
  // a quote makes the file a one-pass read; the answer must not change
  { weight: 1, arbitrary: fc.constantFrom('"1",2,3,4,5,6,7', '1,2,3,4,5,6,"x\n7"') },
);
const doc = fc.record({
  bom: fc.boolean(),
  crlf: fc.boolean(),
  trailingNewline: fc.boolean(),
  rows: fc.array(row, { maxLength: 80, size: 'medium' }),
  rangeBytes: fc.integer({ min: 1, max: 300 }),
});

type Doc = typeof doc extends fc.Arbitrary<infer T> ? T : never;

function csvOf(d: Doc): string {
  const nl = d.crlf ? '\r\n' : '\n';
  const body = ['n1,n2,n3,n4,n5,n6,n7', ...d.rows].join(nl);
  return (d.bom ? '\uFEFF' : '') + body + (d.trailingNewline ? nl : '');
}

/** Everything a read gives, or the error it throws, as plain data to compare. */
async function outcome(path: string, ranges?: { rangeBytes: number }) {
  const reported: RejectedRow[] = [];
  try {
    const file = await readCustomerFile(path, {
      pool: POOL,
      onRejected: (r) => reported.push(r),
      ...(ranges ? { parallel: { workers: 2, minBytes: 0, ...ranges } } : {}),
    });
    return {
      tickets: [...file.tickets],
      lines: [...file.lines],
      offsets: [...file.offsets],
      lengths: [...file.lengths],
      rowsRead: file.rowsRead,
      rejectedCount: file.rejectedCount,
      rejected: file.rejected,
      reported,
    };
  } catch (err) {
    return { error: String(err), code: (err as { code?: string }).code, reported };
  }
}

describe('reading a CSV in byte ranges on worker threads', () => {
  it('gives exactly what a one-pass read gives: tickets, line numbers, offsets, rejected rows, errors', async () => {
    await fc.assert(
      fc.asyncProperty(doc, async (d) => {
        const path = await fileWith(csvOf(d));
        const one = await outcome(path);
        const many = await outcome(path, { rangeBytes: d.rangeBytes });
        expect(many).toEqual(one);
      }),
      { numRuns: 120 },
    );
  }, 120_000);

  it('really reads in ranges when the file has no quote, and leaves a quoted file to one pass', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => [1, 2, 3, 4, 5, 6, 7 + (i % 20)].join(','));
    const ranges = { workers: 2, rangeBytes: 500 };
    const plain = await fileWith(['n1,n2,n3,n4,n5,n6,n7', ...rows, '1,1,2,3,4,5,6', ''].join('\n'));
    const inRanges = await readCsvInParallel(plain, statSync(plain).size, { pool: POOL }, ranges);
    const onePass = await readCustomerFile(plain, { pool: POOL });
    expect(inRanges).not.toBeNull();
    expect({ ...inRanges, format: 'csv' }).toEqual(onePass);
    expect(inRanges?.rejected.map((r) => r.line)).toEqual([402]);

    const quoted = await fileWith(
      ['n1,n2,n3,n4,n5,n6,n7', ...rows, '"1",2,3,4,5,6,7', ''].join('\n'),
    );
    expect(
      await readCsvInParallel(quoted, statSync(quoted).size, { pool: POOL }, ranges),
    ).toBeNull();
  });

  it('reads a header-only file without a line end as "no data rows", not a crash', async () => {
    const path = await fileWith('n1,n2,n3,n4,n5,n6,n7');
    const got = await outcome(path);
    expect(got).toMatchObject({ code: 'NO_VALID_ROWS' });
    expect(String((got as { error: string }).error)).toContain('a header but no data rows');
  });
});
