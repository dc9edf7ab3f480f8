import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RejectedRow } from '../core/errors';
import { closeScanWorkers } from '../parallel/workers';
import { readCustomerFile } from './customer-file';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-plain-'));
});
afterAll(async () => {
  await closeScanWorkers();
  await rm(dir, { recursive: true, force: true });
});

const POOL = 35;
/** Text fields without quotes (a quote makes the file a one-pass read), CRs and digits among them. */
const text = fc.oneof(
  fc.constantFrom('', 'x', 'C12', 'a\rb', '12', ' 3', '\r'),
  fc.string({ maxLength: 6 }).filter((s) => !/[",\n]/.test(s)),
);
/** The seven numbers of a row: mostly valid, else one of the near misses the readers must refuse. */
const numbers = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .uniqueArray(fc.integer({ min: 1, max: POOL }), { minLength: 7, maxLength: 7 })
      .map((n) => n.map(String)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.array(fc.integer({ min: 1, max: POOL }).map(String), { minLength: 6, maxLength: 6 }),
        fc.constantFrom('0', '36', '007', '07', '1a', '', '+1', ' 4', '4 ', '4\r', '\r4', '100'),
        fc.nat(6),
      )
      .map(([n, odd, at]) => [...n.slice(0, at), odd, ...n.slice(at)]),
  },
);
/** A row of the wide layout `id,n1,n2,n3,name,n4,n5,n6,n7,phone`, sometimes a field short or over. */
const wideRow = fc
  .record({
    n: numbers,
    id: text,
    name: text,
    phone: text,
    shape: fc.constantFrom('whole', 'whole', 'whole', 'trailing', 'extra', 'short', 'no-phone'),
  })
  .map(({ n, id, name, phone, shape }) => {
    const fields = [id, ...n.slice(0, 3), name, ...n.slice(3), phone];
    if (shape === 'trailing') fields.push('');
    if (shape === 'extra') fields.push('x');
    if (shape === 'short') fields.splice(2, 1);
    if (shape === 'no-phone') fields.pop();
    return fields.join(',');
  });
const line = fc.oneof(
  { weight: 12, arbitrary: wideRow },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '\r',
      'x'.repeat(300),
      ',,,,,,,,,',
      `a,1,2,3,${'n'.repeat(250)},4,5,6,7,p`,
    ),
  },
);
const doc = fc.record({
  crlf: fc.boolean(),
  trailingNewline: fc.boolean(),
  lines: fc.array(line, { maxLength: 80, size: 'medium' }),
  rangeBytes: fc.integer({ min: 1, max: 400 }),
  longLines: fc.boolean(),
});

/** Everything a read gives but each row's line, offset and length, or the error it throws. */
async function outcome(path: string, opts: { rangeBytes?: number; maxRecordBytes?: number }) {
  const reported: RejectedRow[] = [];
  try {
    const file = await readCustomerFile(path, {
      pool: POOL,
      onRejected: (r) => reported.push(r),
      ...(opts.maxRecordBytes ? { maxRecordBytes: opts.maxRecordBytes } : {}),
      ...(opts.rangeBytes
        ? { rows: false, parallel: { workers: 2, minBytes: 0, rangeBytes: opts.rangeBytes } }
        : {}),
    });
    return {
      tickets: [...file.tickets],
      rowsRead: file.rowsRead,
      rejectedCount: file.rejectedCount,
      rejected: file.rejected,
      reported,
    };
  } catch (err) {
    // (the rows rejected before the error are not compared: a read in ranges that meets an error
    // tells none of them, a one-pass read those before it — as before the plain rows)
    return { error: String(err), code: (err as { code?: string }).code };
  }
}

describe('reading the tickets alone in byte ranges (plain rows without the tokenizer)', () => {
  it('gives what a one-pass read gives: tickets, rejected rows and their lines, errors', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(doc, async (d) => {
        const nl = d.crlf ? '\r\n' : '\n';
        const body = ['id,n1,n2,n3,name,n4,n5,n6,n7,phone', ...d.lines].join(nl);
        const path = join(dir, `f${n++}.csv`);
        await writeFile(path, body + (d.trailingNewline ? nl : ''));
        const maxRecordBytes = d.longLines ? 200 : undefined;
        const one = await outcome(path, { ...(maxRecordBytes ? { maxRecordBytes } : {}) });
        const ranges = await outcome(path, {
          rangeBytes: d.rangeBytes,
          ...(maxRecordBytes ? { maxRecordBytes } : {}),
        });
        expect(ranges).toEqual(one);
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('refuses, as the one-pass read does, the near misses next to a line end', async () => {
    const rows = [
      ...Array.from({ length: 60 }, (_, i) => `c${i},1,2,3,n,4,5,6,${7 + (i % 20)},p`),
      'a,1,2,3,b,4,5,6,7\r,p', // a CR after the last number, not before the line end
      'a,1,2,3,b,4,5,6,8 ,p', // a space after a number (the general path trims it)
      'a,1,2,3,b,4,5,6,9\r', // the phone missing, a CR line end
      'a,1,2,3,b,4,5,6,10,p\r', // a CR line end
      'a,1,2,3,b\r,4,5,6,11,p', // a CR inside a text field
      '',
      '\r',
      'a,1,2,3,b,4,5,6,12,p,', // one trailing empty field
      'a,1,2,3,b,4,5,6,13,p,,', // two
      'a,1,2,3,b,4,5,6,14', // the last field missing
    ];
    const path = join(dir, 'near-misses.csv');
    await writeFile(path, ['id,n1,n2,n3,name,n4,n5,n6,n7,phone', ...rows].join('\n'));
    const one = await outcome(path, {});
    expect(await outcome(path, { rangeBytes: 300 })).toEqual(one);
    expect(one).toMatchObject({ rowsRead: 68, rejectedCount: 4 });
  });
});
