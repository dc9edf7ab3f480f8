import fs from 'node:fs';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { clearAdminSessions, sessionPageSettled, uploadDone } from './power7-support';
import { checkScreens, downloadOf, signIn } from './support';

/**
 * Issue #25 in the browser: a finished session run again with other payouts and budget (no upload),
 * the runs of one file compared, the sessions list (name, note, delete), the draws export and the
 * warning of a file most of whose rows were rejected.
 */

const expect = baseExpect.configure({ timeout: 20_000 });
const POOL = 20;
const EURO_PAYOUTS = '€1.00 / €5.00 / €50.00 / €500.00 / €8,000.00';

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

/** The session's fields: a fixed budget of 400, payouts 1 / 5 / 50 / 500 / 5,000, no currency. */
const FIELDS = {
  budget_type: 'fixed',
  budget: '400',
  payout_3: '1',
  payout_4: '5',
  payout_5: '50',
  payout_6: '500',
  payout_7: '5000',
  pool_size: String(POOL),
};

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
  const source = await uploadDone(request, customerCsv(400), 'week46.csv', FIELDS);

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
  // the session's currency on every sum: the header and the draws list, one symbol style
  await expect(
    page.getByText(`budget ≤ €900.00 · payouts ${EURO_PAYOUTS} · pool ${POOL}`),
  ).toBeVisible();
  const firstDraw = page.getByTestId('power7-draw-row').first();
  await expect(firstDraw.getByRole('cell').nth(6)).toHaveText(/^€\d{1,3}(,\d{3})*\.\d\d$/);

  // every draw the filters match, as a CSV a spreadsheet opens cleanly: the run's parameters first
  const file = await (
    await downloadOf(page, () =>
      page
        .getByTestId('power7-export')
        .getByRole('button', { name: /\(CSV\)$/ })
        .click(),
    )
  ).path();
  const text = fs.readFileSync(file!, 'utf8');
  expect(text.startsWith('\uFEFF# Power Analyzer - Power 7 qualifying draws')).toBe(true);
  expect(text).toContain(`\r\n# session: ${rerun} (a rerun of ${source})`);
  expect(text).toContain('\r\ncombo,winners_3,');
  // and as a workbook
  const workbook = await downloadOf(page, () =>
    page
      .getByTestId('power7-export')
      .getByRole('button', { name: /\(XLSX\)$/ })
      .click(),
  );
  expect(workbook.suggestedFilename()).toMatch(/-draws\.xlsx$/);
  // the insight tables, built in the browser
  const saving = await downloadOf(page, () =>
    page.getByRole('button', { name: 'Insight tables (CSV)' }).click(),
  );
  const insight = fs.readFileSync((await saving.path())!, 'utf8');
  const lines = insight.slice(1).trimEnd().split('\r\n');
  expect(insight.startsWith('\uFEFF"# file: week46.csv"\r\n')).toBe(true);
  expect(lines.slice(0, 6)).toEqual([
    '"# file: week46.csv"',
    `"# session: ${rerun}"`,
    `"# pool: numbers 1 to ${POOL}, 7 drawn (77520 draws)"`,
    '"# payouts: 3 matches 1; 4 matches 5; 5 matches 50; 6 matches 500; 7 matches 8000"',
    '"# budget: fixed, at most 900"',
    '"# currency: EUR"',
  ]);
  const header = lines[6]!.split(',');
  expect(header.slice(0, 6)).toEqual([
    'row',
    'level',
    'budget (EUR)',
    'range minimum (EUR)',
    'draws covered',
    'share covered',
  ]);
  const table = lines.slice(7).map((line) => line.split(','));
  const budgetRows = table.filter((cells) => cells[0] === 'budget');
  // every budget the page asked (the histogram's edges, the risk view's amounts, "Try a budget"),
  // the session's own among them, each once
  expect(budgetRows.length).toBeGreaterThan(10);
  expect(budgetRows.map((cells) => cells[2])).toContain('900');
  expect(new Set(budgetRows.map((cells) => cells[2])).size).toBe(budgetRows.length);
  // one unit per column: shares stay between 0 and 1, counts are whole numbers
  for (const cells of budgetRows) {
    expect(Number(cells[5])).toBeLessThanOrEqual(1);
    expect(Number.isInteger(Number(cells[4]))).toBe(true);
  }

  // the sessions list: parameters, currency, expiry; a name and a note edited in place
  await page.goto('/app/power7');
  const rows = page.getByTestId('power7-session-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('≤ €900.00');
  await expect(rows.nth(1)).toContainText('≤ 400.00');
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
  const compareTable = page.getByTestId('power7-compare-table');
  // the runs in the picker's order, the upload first, each named by its name or kind and budget
  const picker = page.getByTestId('power7-compare-runs').getByRole('listitem');
  await expect(picker.nth(0)).toContainText('Upload, budget ≤ 400.00');
  await expect(picker.nth(0)).toContainText('payouts 1.00 / 5.00 / 50.00 / 500.00 / 5,000.00');
  await expect(picker.nth(1)).toContainText('Week 46, higher jackpot (rerun)');
  await expect(picker.nth(1)).toContainText(`budget ≤ €900.00 · payouts ${EURO_PAYOUTS}`);
  const columns = compareTable.getByRole('columnheader');
  await expect(columns).toHaveText([
    'Measure',
    'Upload, budget ≤ 400.00',
    'Week 46, higher jackpot (rerun)',
  ]);
  await expect(compareTable).toContainText('Chance a draw pays more than the budget');
  await expect(compareTable.getByRole('row', { name: /^Budget ≤/ })).toContainText('≤ €900.00');
  // the tails on log scales, with axis titles; the legend in the same order
  const curves = page.getByTestId('power7-compare-curves');
  await expect(curves.locator('.recharts-line')).toHaveCount(2);
  await expect(curves).toContainText('Chance of paying more');
  await expect(curves).toContainText('Amount (log scale)');
  await expect(curves).toContainText("The runs' currencies differ: the axis shows plain amounts.");
  await expect(curves.getByTestId('power7-compare-legend').getByRole('listitem')).toHaveText([
    'Upload, budget ≤ 400.00',
    'Week 46, higher jackpot (rerun)',
    "A dot on a curve: that run's own budget.",
  ]);
  // the chance axis in powers of ten, down to below 1 draw in 77,520
  for (const tick of ['100 %', '1 %', '1 in 1K', '1 in 100K']) {
    await expect(curves.getByText(tick, { exact: true })).toBeVisible();
  }
  await checkScreens(page, 'power7-compare', async (p) => {
    await expect(p.getByTestId('power7-compare-curves').locator('.recharts-line')).toHaveCount(2);
  });
  // the chart's table: the draws paying more than each amount, per run, at the same amounts
  await curves.getByRole('button', { name: 'Show as table' }).click();
  const tails = page.getByTestId('power7-compare-tails-table');
  await expect(tails.getByRole('columnheader')).toHaveText([
    'More than',
    'Upload, budget ≤ 400.00',
    'Week 46, higher jackpot (rerun)',
  ]);
  await expect(tails.getByRole('row').nth(1)).toContainText('of 77,520');
  await checkScreens(page, 'power7-compare-table', async (p) => {
    await expect(p.getByTestId('power7-compare-tails-table')).toBeVisible();
  });

  // most rows rejected: a warning naming the commonest reason
  const mostlyBad = await uploadDone(request, customerCsv(20, 180), 'shifted.csv', FIELDS);
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
