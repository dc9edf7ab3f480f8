import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readCustomerFile } from './customer-file';
import { recogniseColumns } from '../core/file-columns';
import { sniffUpload, SNIFF_BYTES } from './file-sniff';
import { readCsvTickets, TicketReader } from './ticket-reader';
import { writeWorkbook } from '../testing/xlsx-zip';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileWith(name: string, content: string | Buffer) {
  const p = join(dir, name);
  await writeFile(p, content);
  return p;
}

describe('column recognition', () => {
  it('finds seven number columns, case-insensitively, and the optional ones', () => {
    const c = recogniseColumns([
      'Phone',
      'NAME',
      'customer_id',
      'N1',
      'n2',
      'n3',
      'N4',
      'n5',
      'n6',
      'n7',
      'city',
    ]);
    expect(c.numbers).toEqual({ kind: 'seven', indexes: [3, 4, 5, 6, 7, 8, 9] });
    expect([c.id, c.name, c.phone]).toEqual([2, 1, 0]);
    expect(
      recogniseColumns([
        'Number1',
        'Number2',
        'Number3',
        'Number4',
        'Number5',
        'Number6',
        'Number7',
      ]).numbers.kind,
    ).toBe('seven');
  });
  it('finds one combined column', () => {
    expect(recogniseColumns(['id', 'Combination']).numbers).toEqual({ kind: 'single', index: 1 });
    expect(recogniseColumns(['TICKET']).numbers).toEqual({ kind: 'single', index: 0 });
  });
  it('refuses a header without number columns, naming what it found', () => {
    expect(() => recogniseColumns(['a', 'b', 'n1'])).toThrow(
      /no recognisable number columns.*"a", "b", "n1"/,
    );
  });
});

describe('reading customer files', () => {
  it('reads seven columns with tabs, keeps line numbers, reports every bad row', async () => {
    const p = await fileWith(
      't.tsv',
      'n1\tn2\tn3\tn4\tn5\tn6\tn7\tnote\n7\t6\t5\t4\t3\t2\t1\tok\n1\t2\t3\t4\t5\t6\t\tshort\n1\t2\t3\t4\t5\t6\t7.5\tx\n\t\t\t\t\t\t\tnothing\n1\t2\t3\t4\t5\t6\t0\tzero\n',
    );
    const f = await readCustomerFile(p, { pool: 35 });
    expect(f.count).toBe(1);
    expect(Array.from(f.tickets)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(f.rowsRead).toBe(5);
    expect(f.rejected.map((r) => [r.line, r.reason])).toEqual([
      [3, 'wrong count: expected 7 numbers, found 6'],
      [4, '"7.5" is not an integer'],
      [5, 'empty: no numbers'],
      [6, 'out of pool: 0 is not in 1..35'],
    ]);
  });

  it('rejects a row whose field count differs from the header, with its line, on both ways of reading', async () => {
    const text =
      'id,n1,n2,n3,n4,n5,n6,n7,note\n' +
      'a,1,2,3,4,5,6,7,ok\n' +
      'b,1,2,3,4,5,6,7,8,eighth number\n' +
      'c,1,2,3,4,5,6,7\n' +
      'd,1,2,3,4,5,6,7,trailing delimiter,\n' +
      'e,1,2,3,4,5,6,7,two,,\n' +
      'f,1,2,3,4,5,6,7,,\n';
    for (const fastPath of [true, false]) {
      const f = await readCsvTickets(
        (async function* () {
          yield Buffer.from(text);
        })(),
        { pool: 35, fastPath },
      );
      expect(Array.from(f.lines), `fastPath ${fastPath}`).toEqual([2, 5, 7]);
      expect(f.rejected.map((r) => [r.line, r.reason])).toEqual([
        [3, 'wrong field count: expected 9 fields as in the header, found 10'],
        [4, 'wrong field count: expected 9 fields as in the header, found 8'],
        [6, 'wrong field count: expected 9 fields as in the header, found 11'],
      ]);
    }
    // a header that ends with a delimiter: its rows may too, or not
    const trailing = await fileWith(
      'trailing.csv',
      'n1;n2;n3;n4;n5;n6;n7;\n1;2;3;4;5;6;7;\n1;2;3;4;5;6;7\n1;2;3;4;5;6;7;8\n',
    );
    const t = await readCustomerFile(trailing, { pool: 35 });
    expect(Array.from(t.lines)).toEqual([2, 3]);
    expect(t.rejected.map((r) => r.line)).toEqual([4]);
  });

  it('splits a combined column on spaces, commas, dashes and semicolons', async () => {
    const p = await fileWith('c.csv', 'numbers\n"1, 2;3-4  5,6 ,7"\n49 1 2 3 4 5 6\n');
    const f = await readCustomerFile(p, { pool: 49 });
    expect(f.count).toBe(2);
    expect(Array.from(f.tickets.subarray(7))).toEqual([1, 2, 3, 4, 5, 6, 49]);
  });
});

describe('reading XLSX customer files', () => {
  it('reads the first sheet of an XLSX file, detected by content whatever its name', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Customers');
    ws.addRow(['Name', 'N1', 'N2', 'N3', 'N4', 'N5', 'N6', 'N7']);
    ws.addRow(['Ann', 1, 2, 3, 4, 5, 6, 7]);
    ws.addRow(['Bob, Jr.', 8, 9, 10, 11, 12, 13, 99]);
    wb.addWorksheet('Other').addRow(['ignored']);
    const p = join(dir, 'upload.bin');
    await writeWorkbook(wb, p);
    const copies: Buffer[] = [];
    const f = await readCustomerFile(p, { pool: 35, csvCopy: (c) => copies.push(c) });
    expect(f.format).toBe('xlsx');
    expect(f.count).toBe(1);
    expect(f.rejected).toEqual([
      { line: 3, reason: 'out of pool: 99 is not in 1..35', raw: '"Bob, Jr.",8,9,10,11,12,13,99' },
    ]);
    expect(Buffer.concat(copies).toString()).toContain('Ann,1,2,3,4,5,6,7');

    const whole = await readFile(p);
    const truncated = await fileWith('cut.xlsx', whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(readCustomerFile(truncated, { pool: 35 })).rejects.toMatchObject({
      code: 'XLSX_INVALID',
    });
  });

  it('pads XLSX rows to the header and rejects a row with a cell beyond it', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Customers');
    ws.addRow(['N1', 'N2', 'N3', 'N4', 'N5', 'N6', 'N7', 'Note']);
    ws.addRow([1, 2, 3, 4, 5, 6, 7]); // no note: shorter than the header
    ws.getCell('L2').numFmt = '0.00'; // a formatted empty cell does not make a row longer
    ws.addRow([1, 2, 3, 4, 5, 6, 8, 'x', 9]); // a ninth cell under no header
    ws.addRow([1, 2, 3, 4, 5, 6, 9, 'y']);
    const p = join(dir, 'widths.xlsx');
    await writeWorkbook(wb, p);
    const f = await readCustomerFile(p, { pool: 35 });
    expect(Array.from(f.lines)).toEqual([2, 4]);
    expect(f.rejected.map((r) => [r.line, r.reason])).toEqual([
      [3, 'wrong field count: expected 8 fields as in the header, found 9'],
    ]);
  });

  it('writes XLSX date cells as ISO dates, not serial numbers (issue #25)', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Customers');
    ws.addRow(['Name', 'Joined', 'Seen', 'N1', 'N2', 'N3', 'N4', 'N5', 'N6', 'N7']);
    ws.addRow([
      'Ann',
      new Date(Date.UTC(2024, 10, 12)),
      new Date(Date.UTC(2024, 10, 12, 8, 30)),
      1,
      2,
      3,
      4,
      5,
      6,
      7,
    ]);
    const p = join(dir, 'dates.xlsx');
    await writeWorkbook(wb, p);
    const copies: Buffer[] = [];
    const f = await readCustomerFile(p, { pool: 35, csvCopy: (c) => copies.push(c) });
    expect(f.count).toBe(1);
    const text = Buffer.concat(copies).toString();
    expect(text).toContain('Ann,2024-11-12,2024-11-12T08:30:00,1,2,3,4,5,6,7');
    expect(text).not.toContain('45608');
  });
});

describe('refusing bad rows and files', () => {
  it('reports a row with a field too many as a field count, not as a bad number (issue #25)', async () => {
    // "Doe, John" unquoted: every column after the name moves one to the right
    const p = await fileWith(
      'shifted.csv',
      'id,name,phone,n1,n2,n3,n4,n5,n6,n7\nC1,Ann,+1555,1,2,3,4,5,6,7\nC2,Doe, John,+1556,1,2,3,4,5,6,7\n',
    );
    const f = await readCustomerFile(p, { pool: 35 });
    expect(f.rejected.map((r) => r.reason)).toEqual([
      'wrong field count: expected 10 fields as in the header, found 11',
    ]);
  });

  it('gives clear errors for empty, binary, header-only, all-invalid and headerless files', async () => {
    await expect(readCustomerFile(await fileWith('e.csv', ''), { pool: 35 })).rejects.toMatchObject(
      {
        code: 'FILE_EMPTY',
      },
    );
    await expect(
      readCustomerFile(await fileWith('b.csv', '\uFEFF \r\n'), { pool: 35 }),
    ).rejects.toMatchObject({
      code: 'FILE_EMPTY',
    });
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    await expect(
      readCustomerFile(await fileWith('j.csv', junk), { pool: 35 }),
    ).rejects.toMatchObject({
      code: 'NOT_A_TABLE',
    });
    await expect(
      readCustomerFile(await fileWith('h.csv', 'numbers\n'), { pool: 35 }),
    ).rejects.toThrow(/no data rows/);
    await expect(
      readCustomerFile(await fileWith('i.csv', 'numbers\n1 2 3\n'), { pool: 35 }),
    ).rejects.toMatchObject({ code: 'NO_VALID_ROWS', message: expect.stringContaining('line 2') });
    await expect(
      readCustomerFile(await fileWith('x.csv', '1,2,3,4,5,6,7\n'), { pool: 35 }),
    ).rejects.toMatchObject({ code: 'NO_NUMBER_COLUMNS' });
  });

  it('refuses an absurdly long line', async () => {
    const p = await fileWith('long.csv', 'numbers\n' + 'x'.repeat(3 << 20));
    await expect(readCustomerFile(p, { pool: 35 })).rejects.toMatchObject({
      code: 'LINE_TOO_LONG',
    });
  });
});

describe('sniffing the start of an upload', () => {
  const code = (head: string | Buffer, complete: boolean) =>
    sniffUpload(typeof head === 'string' ? Buffer.from(head) : head, complete)?.code ?? null;

  it('names what the first bytes already show, and nothing else', () => {
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    expect(code(junk, true)).toBe('NOT_A_TABLE');
    expect(code('', true)).toBe('FILE_EMPTY');
    expect(code('\uFEFF \r\n\t\n', true)).toBe('FILE_EMPTY');
    expect(code('foo,bar\n1,2\n', false)).toBe('NO_NUMBER_COLUMNS');
    expect(code('\uFEFFcustomer;phone', true)).toBe('NO_NUMBER_COLUMNS');
    expect(code('\n\n"a";"b"\r\n', false)).toBe('NO_NUMBER_COLUMNS');
    // fine so far, or undecidable from the head: the whole read decides
    expect(code('n1,n2,n3,n4,n5,n6,n7\n', true)).toBeNull(); // no data rows: found later
    expect(code('Customer ID\tNumbers\n1\t1 2 3 4 5 6 7\n', false)).toBeNull();
    expect(code('foo,bar', false)).toBeNull(); // the header line has not ended yet
    expect(code('"foo,bar\n', true)).toBeNull(); // open quote: the reader reports it
    expect(code(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), false)).toBeNull(); // XLSX
    // binary after the sniffed head is not seen
    const late = Buffer.concat([
      Buffer.from('foo,bar\n'.padEnd(SNIFF_BYTES, 'x')),
      Buffer.alloc(100, 0),
    ]);
    expect(code(late, false)).toBe('NO_NUMBER_COLUMNS');
  });

  it('agrees with reading the whole file whenever it refuses', async () => {
    const header = fc.constantFrom(
      'n1,n2,n3,n4,n5,n6,n7',
      'numbers',
      'Ticket;Name',
      'foo,bar',
      'id\tname',
      '"n1","n2"',
      '',
      '\u0000\u0001',
    );
    await fc.assert(
      fc.asyncProperty(header, fc.string({ maxLength: 40 }), async (h, body) => {
        const text = `${h}\n${body}`;
        const refusal = sniffUpload(Buffer.from(text), true);
        if (!refusal) return;
        const p = join(dir, 'sniffed.csv');
        await writeFile(p, text);
        await expect(readCustomerFile(p, { pool: 35 })).rejects.toMatchObject({
          code: refusal.code,
        });
      }),
      { numRuns: 150 },
    );
  });
});

describe('TicketReader', () => {
  it('reads the same tickets whatever the chunks it is pushed', async () => {
    const rows = ['customer,n1,n2,n3,n4,n5,n6,n7'];
    for (let i = 0; i < 300; i++) {
      const t = [1, 2, 3, 4, 5, 6, 7].map((k) => (i % 29) + k);
      if (i % 17 === 0) t[6] = 99; // out of pool: rejected
      rows.push(`"C${i}, x",${t.join(',')}`);
    }
    const text = Buffer.from(rows.join('\r\n'));
    const whole = await readCsvTickets(
      (async function* () {
        yield text;
      })(),
      { pool: 35 },
    );
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 30 }), (sizes) => {
        const reader = new TicketReader({ pool: 35 });
        let at = 0;
        for (const n of sizes) {
          reader.push(text.subarray(at, at + n));
          at += n;
        }
        reader.push(text.subarray(at));
        const got = reader.end();
        expect(got.count).toBe(whole.count);
        expect(Array.from(got.tickets)).toEqual(Array.from(whole.tickets));
        expect(Array.from(got.offsets)).toEqual(Array.from(whole.offsets));
        expect(got.rejected).toEqual(whole.rejected);
        expect(got.rejectedCount).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });
});

/** The fused reading's documents: these delimiters, cells mostly numbers in the pool, some not. */
const delimiters = [',', ';', '\t'];
const cell = (pool: number) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min: 1, max: pool }).map(String) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        '0',
        '07',
        '007',
        '+3',
        ' 4',
        '5 ',
        '',
        'x',
        '"6"',
        '"1""2"',
        '99',
        '100',
        '1e1',
        '-2',
        '\r',
        '"a\nb"',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: pool + 1, max: 120 }).map(String) },
  );

describe('fused reading of plain rows', () => {
  it('reads exactly what tokenize-then-validate reads, on any document and any chunking', async () => {
    const doc = fc
      .record({
        pool: fc.integer({ min: 8, max: 49 }),
        delim: fc.constantFrom(...delimiters),
        extra: fc.integer({ min: 0, max: 3 }),
        order: fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], {
          minLength: 10,
          maxLength: 10,
        }),
        crlf: fc.boolean(),
        bom: fc.boolean(),
        lastEol: fc.boolean(),
      })
      .chain((d) =>
        fc.record({
          d: fc.constant(d),
          rows: fc.array(
            fc.oneof(
              { weight: 10, arbitrary: fc.array(cell(d.pool), { minLength: 7, maxLength: 7 }) },
              { weight: 1, arbitrary: fc.array(cell(d.pool), { maxLength: 9 }) },
            ),
            { maxLength: 40 },
          ),
          splits: fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 12 }),
        }),
      );
    await fc.assert(
      fc.asyncProperty(doc, async ({ d, rows, splits }) => {
        // the seven number columns and `extra` text columns, in a random order
        const cols = d.order.filter((c) => c < 7 + d.extra);
        const header = cols.map((c) => (c < 7 ? `n${c + 1}` : `x${c}`)).join(d.delim);
        const eol = d.crlf ? '\r\n' : '\n';
        const lines = rows.map((cells, r) =>
          cols
            .map((c) => (c < 7 ? (cells[c] ?? '') : `t${r}`))
            .slice(0, cells.length < 7 ? Math.max(1, cells.length) : cols.length)
            // some rows end with a delimiter (tolerated) or carry a field beyond the header (not)
            .concat(r % 5 === 4 ? [''] : r % 7 === 6 ? ['9'] : [])
            .join(d.delim),
        );
        const text =
          (d.bom ? '\uFEFF' : '') +
          [header, ...lines].join(eol) +
          (d.lastEol ? eol : '') +
          (rows.length % 3 === 0 ? `${eol}${eol}` : '');
        const bytes = Buffer.from(text);
        const read = (fastPath: boolean, chunks = splits) => {
          const reader = new TicketReader({ pool: d.pool, fastPath });
          try {
            let at = 0;
            for (const n of chunks) {
              reader.push(bytes.subarray(at, at + n));
              at += n;
            }
            reader.push(bytes.subarray(at));
            const f = reader.end();
            return {
              count: f.count,
              rowsRead: f.rowsRead,
              rejectedCount: f.rejectedCount,
              rejected: f.rejected,
              tickets: Array.from(f.tickets),
              lines: Array.from(f.lines),
              offsets: Array.from(f.offsets),
              lengths: Array.from(f.lengths),
            };
          } catch (err) {
            return { error: (err as { code: string }).code };
          }
        };
        const fused = read(true);
        expect(fused).toEqual(read(false));
        // and the chunking changes nothing (a first chunk cut inside the BOM or the header included)
        expect(fused).toEqual(read(false, []));
      }),
      { numRuns: 300 },
    );
  }, 30_000); // 300 documents: ~3 s alone, longer on a busy machine

  it('takes the fused way for plain rows and still reports every bad one with its reason', async () => {
    const text =
      'id,n1,n2,n3,n4,n5,n6,n7\r\n' +
      'a,1,2,3,4,5,6,7\r\n' +
      'b,1,2,3,4,5,6,36\r\n' +
      'c,1,1,3,4,5,6,7\r\n' +
      'd,1,2,3,4,5,6\r\n' +
      'e,07,2,3,4,5,6,8\r\n' +
      '"f",1,2,3,4,5,6,9\r\n';
    const f = await readCsvTickets(
      (async function* () {
        yield Buffer.from(text);
      })(),
      { pool: 35 },
    );
    expect(f.count).toBe(3);
    expect(Array.from(f.lines)).toEqual([2, 6, 7]);
    expect(f.rejected.map((r) => [r.line, r.reason.split(':')[0]])).toEqual([
      [3, 'out of pool'],
      [4, 'duplicate'],
      // a field short: its field count is the reason (the numbers are read against the header)
      [5, 'wrong field count'],
    ]);
  });
});
