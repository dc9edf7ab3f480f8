import { openAsBlob } from 'node:fs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { generateTickets, writeCustomerCsv } from '@pa/power7-engine/bench/generate';
import { E2E } from '../playwright.config';
import { persistedAccessToken, signIn } from '../e2e/support';

/**
 * What the web app adds to an analysis: with the Power 7 benchmark's file (1,000,000 tickets,
 * P=35, payouts 1/5/50/500/5000, fixed budget 270,000), the time from choosing the file in the page
 * to the histogram shown, measured in the browser, next to the API-only upload → done of the same
 * run. Printed as a table; run it alone on a quiet machine.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const FIELDS = {
  budget_type: 'fixed',
  budget: '270000',
  payout_3: '1',
  payout_4: '5',
  payout_5: '50',
  payout_6: '500',
  payout_7: '5000',
};

async function apiOnly(page: Page, file: string): Promise<number> {
  const token = await persistedAccessToken(page);
  const form = new FormData();
  for (const [k, v] of Object.entries(FIELDS)) form.append(k, v);
  form.append('customer_file', await openAsBlob(file), 'customers.csv');
  const started = performance.now();
  const res = await fetch(`${E2E.power7Url}/api/upload/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(202);
  const id = ((await res.json()) as { data: { _id: string } }).data._id;
  for (;;) {
    const status = await fetch(`${E2E.power7Url}/api/power7/processing-status/?session=${id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const data = ((await status.json()) as { data: { status: string } }).data;
    if (data.status === 'done') return performance.now() - started;
    expect(['queued', 'running']).toContain(data.status);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function throughPage(page: Page, file: string): Promise<number> {
  await page.goto('/app/power7/parameters');
  await page.getByLabel('Fixed: at most an amount').check();
  await page.getByLabel('Budget', { exact: true }).fill(FIELDS.budget);
  for (const m of [3, 4, 5, 6, 7]) {
    await page.getByLabel(`${m} matches`).fill(FIELDS[`payout_${m}` as keyof typeof FIELDS]);
  }
  // the clock starts in the page when the file input reports the choice
  await page.evaluate(() => {
    document
      .querySelector('#customer_file')!
      .addEventListener(
        'change',
        () => ((window as unknown as { benchStart: number }).benchStart = performance.now()),
        { capture: true, once: true },
      );
  });
  await page.locator('#customer_file').setInputFiles(file);
  await expect(page.getByTestId('power7-preview')).toBeVisible();
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(
    page.getByTestId('power7-histogram').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible({ timeout: 120_000 });
  return page.evaluate(
    () => performance.now() - (window as unknown as { benchStart: number }).benchStart,
  );
}

test('choosing the file → histogram shown, next to the API-only upload → done', async ({
  page,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'p7-web-bench-'));
  const file = path.join(dir, 'customers.csv');
  await writeCustomerCsv(file, generateTickets(ROWS, 35, 'uniform'));
  await signIn(page);
  const rows: string[] = [];
  for (let run = 1; run <= 2; run++) {
    const api = await apiOnly(page, file);
    const web = await throughPage(page, file);
    rows.push(
      `| ${run} | ${(api / 1000).toFixed(2)} s | ${(web / 1000).toFixed(2)} s | ${((web - api) / 1000).toFixed(2)} s |`,
    );
  }
  console.log(
    [
      `${ROWS.toLocaleString('en-US')} rows (${(fs.statSync(file).size / 1e6).toFixed(0)} MB), load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
      '| run | API only: upload → done | page: file chosen → histogram | web app adds |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
  fs.rmSync(dir, { recursive: true, force: true });
});
