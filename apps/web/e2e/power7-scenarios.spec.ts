import fs from 'node:fs';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { adminHeaders, clearAdminSessions, sessionPageSettled } from './power7-support';
import { checkScreens, downloadOf, signIn } from './support';

/**
 * Issue #25 in the browser: a finished session run again with other payouts and budget (no upload),
 * the runs of one file compared, the sessions list (name, note, delete), the draws export and the
 * warning of a file most of whose rows were rejected.
 */

const expect = baseExpect.configure({ timeout: 20_000 });
const POOL = 20;

function customerCsv(rows: number, badRows = 0) {
  const lines = ['customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7'];
  let x = 7;
  for (let i = 0; i < rows; i++) {
    const picked = new Set<number>();
    while (picked.size < 7) picked.add(1 + ((x = (x * 48271) % 2147483647) % POOL));
    lines.push(`C${i},Customer ${i},555-${i},${[...picked].sort((a, b) => a - b).join(',')}`);
  }
  // an unquoted comma in the name: one field too many
  for (let i = 0; i < badRows; i++) lines.push(`B${i},Doe, John,555,1,2,3,4,5,6,7`);
  return lines.join('\n') + '\n';
}

/**
 * Uploads through the Power 7 API as the administrator (the upload page has its own spec) and waits
 * for the session, signing in again when the suite's short-lived token expires during the wait.
 */
async function uploadDone(request: APIRequestContext, csv: string, name: string) {
  let headers = await adminHeaders(request);
  const res = await request.post(`${E2E.power7Url}/api/upload/`, {
    headers,
    multipart: {
      budget_type: 'fixed',
      budget: '400',
      payout_3: '1',
      payout_4: '5',
      payout_5: '50',
      payout_6: '500',
      payout_7: '5000',
      pool_size: String(POOL),
      customer_file: { name, mimeType: 'text/csv', buffer: Buffer.from(csv) },
    },
  });
  expect(res.status()).toBe(202);
  const id = (await res.json()).data._id as string;
  await expect
    .poll(
      async () => {
        const status = await request.get(
          `${E2E.power7Url}/api/power7/processing-status/?session=${id}`,
          { headers },
        );
        if (status.status() === 401) {
          headers = await adminHeaders(request);
          return 'token expired';
        }
        return (await status.json()).data.status;
      },
      { timeout: 90_000 },
    )
    .toBe('done');
  return id;
}

const openSession = async (page: Page, id: string) => {
  await page.goto(`/app/power7/process?session=${id}`);
  await expect(page.getByTestId('power7-done')).toBeVisible({ timeout: 60_000 });
};

test.describe.configure({ mode: 'serial' });

// this spec counts the administrator's sessions: it starts from none
test.beforeAll(async ({ request }) => clearAdminSessions(request));

test('rerun, compare, export, sessions list and the rejected-rows warning', async ({
  page,
  request,
}) => {
  test.setTimeout(600_000);
  await signIn(page);
  const source = await uploadDone(request, customerCsv(400), 'week46.csv');

  // a finished session offers a rerun: its parameters prefilled, no file field
  await openSession(page, source);
  await page.getByRole('link', { name: 'Try other payouts or budget' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/power7/rerun\\?session=${source}`));
  await expect(page.getByLabel('Budget', { exact: true })).toHaveValue('400');
  await expect(page.getByLabel('7 matches')).toHaveValue('5000');
  await expect(page.locator('input[type=file]')).toHaveCount(0);
  await checkScreens(page, 'power7-rerun', async (p) => {
    await expect(p.getByRole('heading', { name: 'Try other payouts or budget' })).toBeVisible();
  });
  await page.getByLabel('7 matches').fill('-3');
  await page.getByRole('button', { name: 'Run again' }).click();
  await expect(page.getByText('The payout for 7 matches must be a number ≥ 0.')).toBeVisible();
  await page.getByLabel('7 matches').fill('8000');
  await page.getByLabel('Budget', { exact: true }).fill('900');
  await page.getByLabel('Currency (optional, ISO code)').fill('EUR');
  await page.getByRole('button', { name: 'Run again' }).click();
  await expect(page).toHaveURL(/\/app\/power7\/process\?session=/);
  const rerun = new URL(page.url()).searchParams.get('session')!;
  expect(rerun).not.toBe(source);
  await sessionPageSettled(page);

  // every draw the filters match, as a CSV a spreadsheet opens cleanly
  const file = await (
    await downloadOf(page, () => page.getByTestId('power7-export').getByRole('button').click())
  ).path();
  const text = fs.readFileSync(file!, 'utf8');
  expect(text.startsWith('\uFEFFcombo,winners_3')).toBe(true);
  // the insight tables, built in the browser
  const saving = await downloadOf(page, () =>
    page.getByRole('button', { name: 'Insight tables (CSV)' }).click(),
  );
  const insight = fs.readFileSync((await saving.path())!, 'utf8');
  expect(insight).toMatch(/^\uFEFFtable,percentile or budget,total payout \(EUR\)/);
  expect(insight).toContain('budget,900,');

  // the sessions list: parameters, currency, expiry; a name and a note edited in place
  await page.goto('/app/power7');
  const rows = page.getByTestId('power7-session-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('≤ 900.00 EUR');
  await rows
    .first()
    .getByRole('button', { name: /Rename or annotate/ })
    .click();
  await page.getByLabel('Name', { exact: true }).fill('Week 46, higher jackpot');
  await page.getByLabel('Note', { exact: true }).fill('Asked by finance');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(rows.first()).toContainText('Week 46, higher jackpot');
  await expect(rows.first()).toContainText('Asked by finance');
  await checkScreens(page, 'power7-sessions', async (p) => {
    await expect(p.getByTestId('power7-session-row').first()).toContainText('Week 46');
  });

  // two runs of the file side by side
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await page.getByTestId('power7-compare-chosen').click();
  await expect(page).toHaveURL(/\/app\/power7\/compare\?sessions=/);
  const table = page.getByTestId('power7-compare-table');
  await expect(table).toContainText('Week 46, higher jackpot');
  await expect(table).toContainText('Chance a draw exceeds the budget');
  await expect(page.getByTestId('power7-compare-curves').locator('.recharts-line')).toHaveCount(2);
  await checkScreens(page, 'power7-compare', async (p) => {
    await expect(p.getByTestId('power7-compare-table')).toContainText('99.9th percentile');
  });

  // most rows rejected: a warning naming the commonest reason
  const mostlyBad = await uploadDone(request, customerCsv(20, 180), 'shifted.csv');
  await openSession(page, mostlyBad);
  const warning = page.getByTestId('power7-rejected-warning');
  await expect(warning).toContainText('90.0 % of the rows were rejected (180 of 200)');
  await expect(warning).toContainText('wrong field count');
  await checkScreens(page, 'power7-rejected-warning', async (p) => {
    await expect(p.getByTestId('power7-rejected-warning')).toBeVisible();
  });

  // delete one session, after confirming
  await page.goto('/app/power7');
  await expect(rows).toHaveCount(3);
  await rows.first().getByRole('button', { name: 'Delete shifted.csv' }).click();
  await page.getByRole('button', { name: 'Delete session' }).click();
  await expect(rows).toHaveCount(2);
});
