// A hostile XLSX fails its own session and nothing else (issue #24): the workbook is read on a worker
// thread whose heap is bounded, so the service keeps answering and the next upload runs as usual.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEADER_ROW, sheetXml, workbookWith } from '@pa/power7-engine/testing/xlsx-zip';
import { customerCsv, DEFAULT_FIELDS } from './helper';
import { useOwnApp } from './own-app';

const own = useOwnApp({ XLSX_MAX_MEMORY_MB: '128' });
const fields = { ...DEFAULT_FIELDS, pool_size: '14' };

/** Rows of never-closed tags, each far below the guard's row limit: the XML parser keeps them all. */
function unclosedTags() {
  function* rows() {
    yield HEADER_ROW;
    for (let r = 2; r < 40; r++) yield `<row r="${r}">${'<a>'.repeat(1_000_000)}`;
  }
  return workbookWith(sheetXml(rows()));
}

/** Waits for the session to finish, asking /api/live/ all the while. */
async function finishedWhileLive(session: string) {
  const live: number[] = [];
  let done = false;
  const asking = (async () => {
    while (!done) {
      live.push((await own.app.inject({ url: '/api/live/' })).statusCode);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const data = await own.finished(session);
  done = true;
  await asking;
  return { data, live };
}

describe('a hostile XLSX', () => {
  it('fails its own session with XLSX_TOO_LARGE while the service answers throughout', async () => {
    const bytes = await unclosedTags();
    expect(bytes.length).toBeLessThan(1 << 20);
    const { data, live } = await finishedWhileLive(
      await own.upload(bytes, fields, 'customers.xlsx'),
    );
    expect(data.status).toBe('failed');
    expect(data.error).toMatchObject({
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining('128 MiB'),
    });
    expect(live.length).toBeGreaterThan(1);
    expect(new Set(live)).toEqual(new Set([200]));
    // nothing of the read is left in the session's folder (ExcelJS's temp files went with it)
    const stored = await readdir(join(own.dir, 'data', 'power7'), { recursive: true });
    expect(stored.filter((name) => name.includes('xlsx-scratch'))).toEqual([]);

    // and the next upload runs as usual
    const next = await own.finished(await own.upload(customerCsv(50, 14), fields));
    expect(next.status).toBe('done');
  }, 180_000);
});
