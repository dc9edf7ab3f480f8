import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFitsOneSheet, XLSX_MAX_ROWS } from '../src/modules/exports/exports';
import { DEFAULT_FIELDS } from './helper';
import { useOwnApp } from './own-app';

/**
 * Downloads that stay readable (issue #40): an XLSX with typed cells — ids and phones stay text
 * ("0012345", "+4917…" lose their form when a spreadsheet opens a CSV), money and counts are
 * numbers — and a Parameters sheet; a CSV that starts with the parameters when asked (`params=1`),
 * and exactly as before when not.
 */
const own = useOwnApp();
let session: string;
const COMBO = '1-2-3-4-5-6-7';

const csv = [
  'customer_id,name,phone,numbers',
  '0012345,=HYPERLINK("x"),+4917012345,1 2 3 4 5 6 7',
  '0000007,Zoë,+4917099999,1 2 3 4 5 6 8',
  '42,Ann,030 1234,9 10 11 12 13 14 15',
].join('\n');

const get = (url: string) => own.app.inject({ method: 'GET', url, headers: own.auth() });

async function sheetsOf(body: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  return book;
}

beforeAll(async () => {
  session = await own.upload(
    csv,
    { ...DEFAULT_FIELDS, pool_size: '15', currency: 'EUR', budget: '100000' },
    'customers.csv',
  );
  expect((await own.finished(session)).status).toBe('done');
}, 120_000);

describe('downloads', () => {
  it('a winners XLSX keeps ids and phones as text, money as numbers, and names its parameters', async () => {
    const res = await get(`/api/download-all/${COMBO}/?session=${session}&format=xlsx`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(`power7-${COMBO}-all.xlsx`);
    const book = await sheetsOf(res.rawPayload);
    const sheet = book.getWorksheet('Winners')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(
      expect.arrayContaining(['customer_id', 'phone', 'match_type', 'payout']),
    );
    const col = (name: string) => header.indexOf(name) + 1;
    const rows = [2, 3].map((r) => sheet.getRow(r));
    const first = rows.find((r) => r.getCell(col('customer_id')).value === '0012345')!;
    expect(first.getCell(col('phone')).value).toBe('+4917012345');
    expect(first.getCell(col('payout')).value).toBe(Number(DEFAULT_FIELDS.payout_7));
    expect(first.getCell(col('match_type')).value).toBe(7);
    // a text cell never runs: the CSV's guard quote is not needed
    expect(first.getCell(col('name')).value).toBe('=HYPERLINK("x")');
    expect(rows.some((r) => r.getCell(col('customer_id')).value === '0000007')).toBe(true);
    const params = book.getWorksheet('Parameters')!;
    const lines = params.getColumn(1).values.slice(1).map(String);
    expect(lines).toContain('file: customers.csv');
    expect(lines).toContain(`session: ${session}`);
    expect(lines).toContain('currency: EUR');
    expect(lines.some((l) => l.startsWith('payouts: 3 matches 1; 4 matches 5'))).toBe(true);
  });

  it('a CSV starts with its parameters when asked, and with its header when not', async () => {
    const plain = await get(`/api/download/${COMBO}/7/?session=${session}`);
    expect(plain.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toMatch(/^customer_id,name,phone/);
    const withParams = await get(`/api/download/${COMBO}/7/?session=${session}&params=1`);
    const lines = withParams.body.replace(/^\uFEFF/, '').split('\r\n');
    // a line with a comma is one quoted cell
    expect(lines[0]).toBe('"# Power Analyzer - Power 7 winners of draw 1-2-3-4-5-6-7, 7 matches"');
    expect(lines).toContain(`# session: ${session}`);
    expect(lines).toContain(
      '# payouts: 3 matches 1; 4 matches 5; 5 matches 50; 6 matches 500; 7 matches 5000',
    );
    const header = lines.findIndex((l) => l.startsWith('customer_id,'));
    expect(header).toBeGreaterThan(5);
    expect(lines.slice(0, header).every((l) => /^"?# /.test(l))).toBe(true);
  });

  it('the draws export and the exposure ranking come as XLSX with numbers where numbers are', async () => {
    const draws = await own.app.inject({
      method: 'POST',
      url: '/api/filter/export/?format=xlsx',
      headers: own.auth(),
      payload: { session },
    });
    expect(draws.statusCode, draws.body).toBe(200);
    const sheet = (await sheetsOf(draws.rawPayload)).getWorksheet('Draws')!;
    expect(sheet.getRow(1).getCell(1).value).toBe('combo');
    expect(typeof sheet.getRow(2).getCell(7).value).toBe('number');
    expect(Number(draws.headers['x-total-rows'])).toBe(sheet.rowCount - 1);

    const exposure = await get(
      `/api/power7/sessions/${session}/exposure.csv?over=0&by=customer&format=xlsx`,
    );
    expect(exposure.statusCode, exposure.body).toBe(200);
    const ranked = (await sheetsOf(exposure.rawPayload)).getWorksheet('Exposure')!;
    const ids = ranked.getColumn(1).values.slice(2);
    expect(ids).toContain('0012345');
    expect(typeof ranked.getRow(2).getCell(4).value).toBe('number');
  });

  it('refuses a format it does not know, and rows past one sheet, in words', async () => {
    const res = await get(`/api/download/${COMBO}/7/?session=${session}&format=pdf`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toBe('The format must be "csv" or "xlsx".');
    expect(() => ensureFitsOneSheet(XLSX_MAX_ROWS)).not.toThrow();
    expect(() => ensureFitsOneSheet(XLSX_MAX_ROWS + 1)).toThrow(/download the CSV instead/);
  });
});
