import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArrivingCsvRead } from './arriving-read';
import { readCustomerFile } from './customer-file';
import type { RejectedRow } from '../core/errors';
import { guidedCuts, readCsvInParallel } from './parallel-read';
import type { TicketFile } from './ticket-reader';
import { closeScanWorkers } from '../parallel/workers';
import { BINOM, ticketRank } from '../core/model';
import { countWhileReading } from '../core/tables';

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

/** A read file as plain data to compare, with the rejected rows reported as they were found. */
function asData(file: TicketFile, reported: RejectedRow[]) {
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
}

/**
 * Checks what a read counted as the file arrived (`file.counted`) against the read tickets: the
 * threads' 6-subset tables add up to the tickets' own count, and the ranks are theirs, in file order.
 */
function expectCountedAsRead(file: TicketFile): void {
  const counted = file.counted;
  expect(counted, 'counted while read').toBeDefined();
  const expected = new Uint32Array(BINOM[POOL]![6]!);
  countWhileReading(file.tickets, file.count, expected, new Uint32Array(file.count));
  const sum = new Uint32Array(expected.length);
  for (const table of counted!.c6)
    for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + table[i]!;
  expect(
    sum.findIndex((c, i) => c !== expected[i]),
    'first wrong 6-subset count',
  ).toBe(-1);
  const ranks = Array.from({ length: file.count }, (_, t) => ticketRank(file.tickets, t * 7));
  expect(Array.from(counted!.ranks)).toEqual(ranks);
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
    return asData(file, reported);
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

  it('counts each range on the worker that read it when asked (the CLI), the file read unchanged', async () => {
    // rows out of the pool and repeated tickets among them, so the parts' counts differ in size
    const rows = Array.from({ length: 3000 }, (_, i) =>
      i % 97 === 5 ? '1,2,3,4,5,6,99' : [1 + (i % 9), 11, 13 + (i % 7), 21, 22, 30, 31 + (i % 5)],
    ).map((r) => (Array.isArray(r) ? r.join(',') : r));
    const path = await fileWith(['n1,n2,n3,n4,n5,n6,n7', ...rows, ''].join('\n'));
    const size = statSync(path).size;
    for (const workers of [2, 3]) {
      const ranges = { workers, rangeBytes: 1500 };
      const plain = await readCsvInParallel(path, size, { pool: POOL }, ranges);
      const counted = await readCsvInParallel(
        path,
        size,
        { pool: POOL },
        { ...ranges, count: true },
      );
      expect(plain?.counted).toBeUndefined();
      expectCountedAsRead(counted!);
      expect(counted!.counted!.c6).toHaveLength(workers);
      const { counted: _tables, ...read } = counted!;
      expect(read).toEqual(plain);
    }
  });

  it('cuts a file into ranges that shrink toward its end, each 1–32 MiB', () => {
    const MiB = 1 << 20;
    for (const [size, workers] of [
      [56 * MiB, 2],
      [300 * MiB, 2],
      [20 * MiB, 3],
      [3 * MiB, 2],
    ] as const) {
      const ends = [...guidedCuts(1000, size, workers), size];
      const lengths = ends.map((end, i) => end - (i === 0 ? 1000 : ends[i - 1]!));
      expect(lengths.every((n) => n > 0 && n <= 32 * MiB)).toBe(true);
      // every range but the last at least 1 MiB, and none longer than the one before it
      expect(lengths.slice(0, -1).every((n) => n >= MiB)).toBe(true);
      expect(lengths.every((n, i) => i === 0 || n <= lengths[i - 1]!)).toBe(true);
      // the last ranges are short, so the threads end close together
      if (size > 8 * MiB) expect(lengths.at(-2)).toBe(MiB);
    }
  });

  it('reads ranges of several MiB (read in 1 MiB pieces cut at line ends) as one pass does', async () => {
    // short rows in the head and longer ones after (more than the head's rows per byte promise:
    // the readers' room grows), rejected rows throughout, no line end at the end of the file
    const rows = Array.from({ length: 150_000 }, (_, i) =>
      i % 1013 === 7
        ? '1,2,3,4,5,6,36'
        : i < 5000
          ? [1, 2, 3, 4, 5, 6, 7 + (i % 20), ''].join(',')
          : [1 + (i % 9), 11, 13 + (i % 7), 21, 22, 30, 31 + (i % 5), 'x'.repeat(i % 40)].join(','),
    );
    const path = await fileWith(['n1,n2,n3,n4,n5,n6,n7,note', ...rows].join('\n'));
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(4 << 20);
    const reported: RejectedRow[] = [];
    const inRanges = await readCsvInParallel(
      path,
      size,
      { pool: POOL, onRejected: (r) => reported.push(r) },
      { workers: 2, headBytes: 1 << 16 },
    );
    const onePassReported: RejectedRow[] = [];
    const onePass = await readCustomerFile(path, {
      pool: POOL,
      onRejected: (r) => onePassReported.push(r),
    });
    expect(inRanges).not.toBeNull();
    expect(asData(inRanges!, reported)).toEqual(asData(onePass, onePassReported));
    expect(onePass.rejectedCount).toBe(149);
  });

  it('reads the tickets alone when asked (rows: false), in ranges and in one pass', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) =>
      i % 97 === 5 ? '1,2,3,4,5,6,99' : [1 + (i % 9), 11, 13 + (i % 7), 21, 22, 30, 31].join(','),
    );
    const path = await fileWith(['n1,n2,n3,n4,n5,n6,n7', ...rows, ''].join('\n'));
    const size = statSync(path).size;
    const full = await readCustomerFile(path, { pool: POOL });
    const noRows = (file: TicketFile) => ({
      ...file,
      lines: new Uint32Array(0),
      offsets: new Float64Array(0),
      lengths: new Uint32Array(0),
    });
    const onePass = await readCustomerFile(path, { pool: POOL, rows: false });
    expect(onePass).toEqual(noRows(full));
    for (const workers of [2, 3]) {
      const inRanges = await readCsvInParallel(
        path,
        size,
        { pool: POOL, rows: false },
        { workers, rangeBytes: 1500, count: true },
      );
      const { counted, ...read } = inRanges!;
      expectCountedAsRead(inRanges!);
      expect({ ...read, format: 'csv' }).toEqual(noRows(full));
      expect(counted!.c6).toHaveLength(workers);
    }
  });

  it('reads a header-only file without a line end as "no data rows", not a crash', async () => {
    const path = await fileWith('n1,n2,n3,n4,n5,n6,n7');
    const got = await outcome(path);
    expect(got).toMatchObject({ code: 'NO_VALID_ROWS' });
    expect(String((got as { error: string }).error)).toContain('a header but no data rows');
  });
});

/** Pushes `content` in chunks of the given sizes (cycled) into a read of it as it arrives. */
async function readArriving(
  content: Buffer,
  chunkSizes: number[],
  opts: {
    rangeBytes: number;
    headBytes: number;
    maxUnreadBytes?: number;
    expectedBytes?: number;
    count?: boolean;
  },
) {
  const read = new ArrivingCsvRead({ pool: POOL, workers: 2, ...opts });
  for (let at = 0, i = 0; at < content.length; i++) {
    const size = chunkSizes[i % chunkSizes.length]!;
    await read.push(content.subarray(at, at + size));
    at += size;
  }
  return read.end();
}

describe('reading a CSV while it arrives', () => {
  it('gives what a one-pass read of the file gives, whatever the chunks, or leaves it to that read', async () => {
    const arrival = fc.record({
      chunkSizes: fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 5 }),
      headBytes: fc.integer({ min: 8, max: 120 }),
      maxUnreadBytes: fc.integer({ min: 1, max: 400 }),
      // a right, short or long guess of the size, or none: the joined arrays grow as needed
      expectedBytes: fc.option(fc.integer({ min: 1, max: 6000 }), { nil: undefined }),
      count: fc.boolean(),
    });
    // most generated files hold a quote somewhere (one-pass files): half of them here have none
    const unquoted = doc.map((d) => ({ ...d, rows: d.rows.filter((r) => !r.includes('"')) }));
    let tookOver = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(doc, unquoted), arrival, async (d, a) => {
        const content = Buffer.from(csvOf(d));
        const path = await fileWith(content.toString());
        const one = await outcome(path);
        const arrived = await readArriving(content, a.chunkSizes, {
          rangeBytes: d.rangeBytes,
          headBytes: a.headBytes,
          maxUnreadBytes: a.maxUnreadBytes,
          ...(a.expectedBytes ? { expectedBytes: a.expectedBytes } : {}),
          count: a.count,
        });
        // it may leave a file to the read from disk only for a reason that read deals with
        const plain =
          !content.includes('"') &&
          !('error' in one) &&
          content.length >= a.headBytes &&
          content.subarray(0, a.headBytes).includes('\n');
        if (plain) expect(arrived).not.toBeNull();
        if (!arrived) return;
        tookOver++;
        if (a.count) expectCountedAsRead(arrived.file);
        else expect(arrived.file.counted).toBeUndefined();
        expect(arrived.file.format).toBe('csv');
        expect(asData(arrived.file, arrived.rejected)).toEqual({
          ...one,
          rejected: one.reported.slice(0, 100),
        });
      }),
      { numRuns: 150 },
    );
    expect(tookOver).toBeGreaterThan(30);
  }, 120_000);

  it('cuts ranges as the bytes pass, and an abort ends it with null and its workers stopped', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => [1, 2, 3, 4, 5, 6, 7 + (i % 20)].join(','));
    const content = Buffer.from(['n1,n2,n3,n4,n5,n6,n7', ...rows, ''].join('\n'));
    const arrived = await readArriving(content, [1000], { rangeBytes: 2000, headBytes: 500 });
    const path = await fileWith(content.toString());
    expect(arrived?.file).toEqual(await readCustomerFile(path, { pool: POOL }));
    const counting = { rangeBytes: 2000, headBytes: 500, count: true };
    const counted = await readArriving(content, [1000], counting);
    expectCountedAsRead(counted!.file);

    const read = new ArrivingCsvRead({ pool: POOL, workers: 2, rangeBytes: 2000, headBytes: 500 });
    for (let at = 0; at < content.length / 2; at += 1000)
      await read.push(content.subarray(at, at + 1000));
    read.abort();
    expect(read.push(content.subarray(0, 10))).toBeUndefined();
    expect(await read.end()).toBeNull();
  });
});
