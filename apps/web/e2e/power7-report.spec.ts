import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { ExposureAnswer, InsightAnswer } from '@pa/contracts/power7';
import { E2E } from '../playwright.config';
import { adminHeaders, uploadDone } from './power7-support';
import { applyTheme, checkScreens, expectAccessible, screenshot, signIn } from './support';

/**
 * The printable report of a finished Power 7 session: its figures against the service's own
 * `POST /api/insight/` answer for the same session, the print layout (no shell, nothing wider
 * than A4) and the PDF Chromium prints from it.
 */

const expect = baseExpect.configure({ timeout: 20_000 });

const POOL = 12;
const PAYOUTS = [10, 100, 1_000, 10_000, 1_000_000] as const;
/** A4's text width at 15 mm margins, in CSS pixels (180 mm at 96 px per inch). */
const A4_TEXT_WIDTH = Math.floor((180 / 25.4) * 96);

/**
 * 300 tickets on a pool of 12 (792 draws): quick to analyse. The budget is the total that 85 % of
 * draws stay within, counted here over every draw, so the report has draws on both sides of it.
 */
function makeFile() {
  let seed = 11;
  const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const tickets: number[][] = [];
  for (let i = 0; i < 300; i++) {
    const picked = new Set<number>();
    while (picked.size < 7) picked.add(1 + Math.floor(next() * POOL));
    tickets.push([...picked].sort((a, b) => a - b));
  }
  const lines = ['customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7'];
  tickets.forEach((t, i) => lines.push(`R${i + 1},Report ${i + 1},555-${i},${t.join(',')}`));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'p7-report-')), 'report-week.csv');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const totals: number[] = [];
  const draw = (from: number, picked: number[]) => {
    if (picked.length === 7) {
      const drawn = new Set(picked);
      const matches = tickets.map((t) => t.filter((n) => drawn.has(n)).length);
      totals.push(matches.reduce((sum, m) => sum + (m >= 3 ? PAYOUTS[m - 3]! : 0), 0));
      return;
    }
    for (let n = from; n <= POOL; n++) draw(n + 1, [...picked, n]);
  };
  draw(1, []);
  totals.sort((a, b) => a - b);
  return { file, budget: totals[Math.floor(totals.length * 0.85)]! };
}

const { file: FILE, budget: BUDGET } = makeFile();

const money = (v: number) =>
  v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = (n: number) => n.toLocaleString('en-US');
function percent(share: number) {
  if (share <= 0) return '0 %';
  if (share >= 1) return '100 %';
  const p = share * 100;
  const text = p >= 99.9 || p < 0.1 ? p.toFixed(2) : p.toFixed(1);
  if (Number(text) === 0) return '< 0.01 %';
  if (Number(text) === 100) return '> 99.99 %';
  return `${text} %`;
}
/** The counts behind a share, and "1 in N draws" under 1 % (the page's `countsOf`). */
const countsOf = (part: number, whole: number) =>
  `${count(part)} of ${count(whole)}${part > 0 && part / whole < 0.01 ? `, 1 in ${count(Math.round(whole / part))} draws` : ''}`;
const shareOf = (part: number, whole: number) =>
  `${percent(part / whole)} (${countsOf(part, whole)})`;

async function analyse(page: Page, file: string) {
  await page.goto('/app/power7/parameters');
  await expect(page.getByRole('button', { name: 'Upload and analyse' })).toBeEnabled();
  const carried = page.getByTestId('power7-carried-over');
  if (await carried.isVisible())
    await page.getByRole('button', { name: 'Start from the defaults' }).click();
  await page.locator('#customer_file').setInputFiles(file);
  await expect(page.getByTestId('power7-preview')).toContainText('customer id');
  await page.getByLabel('Fixed: at most an amount').check();
  await page.getByLabel('Budget', { exact: true }).fill(String(BUDGET));
  for (const [i, payout] of PAYOUTS.entries()) {
    await page.getByLabel(`${i + 3} matches`).fill(String(payout));
  }
  await page.getByLabel(/^Pool size/).fill(String(POOL));
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(page.getByTestId('power7-done')).toBeVisible({ timeout: 90_000 });
}

/**
 * The service's exact answer for the session's budget, asked here as the app asks it (as the signed-in
 * administrator, with a token of its own: the page's may have expired by now).
 */
async function insightOf(request: APIRequestContext, session: string): Promise<InsightAnswer> {
  const answer = await request.post(`${E2E.power7Url}/api/insight/`, {
    headers: await adminHeaders(request),
    data: { session, budgets: [BUDGET] },
  });
  expect(answer.status()).toBe(200);
  const body = await answer.json();
  return (body.data ?? body) as InsightAnswer;
}

/** Pages of a PDF: its page objects (`/Type /Page`, not the `/Pages` tree nodes). */
const pdfPageCount = (pdf: Buffer) =>
  pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;

/** The PDF's document title (Chromium writes the page title as UTF-16BE hex: `/Title <FEFF…>`). */
function pdfTitle(pdf: Buffer): string {
  const hex = /\/Title\s*<FEFF([0-9A-Fa-f]*)>/.exec(pdf.toString('latin1'))?.[1] ?? '';
  return Buffer.from(hex, 'hex').swap16().toString('utf16le');
}

/** The PDF's text, where poppler's pdftotext is installed (the CI machine may not have it). */
function pdfText(file: string): string | null {
  try {
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } catch {
    return null;
  }
}

test('the report of a finished session: exact figures, A4 print without the shell, a short PDF', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  await signIn(page);
  await analyse(page, FILE);

  await page.getByRole('link', { name: 'Print report' }).click();
  await expect(page).toHaveURL(/\/app\/power7\/report\?session=/);
  const session = new URL(page.url()).searchParams.get('session')!;
  const report = page.getByTestId('power7-report');
  await expect(report.getByRole('heading', { level: 1 })).toHaveText('report-week.csv');
  await expect(page.getByTestId('power7-histogram').locator('svg.recharts-surface')).toBeVisible();

  // the figures are the service's, for the same session
  const insight = await insightOf(request, session);
  const atBudget = insight.budgets[0]!;
  expect(insight.draws).toBe(792);
  await expect(page.getByTestId('power7-report-counts')).toContainText(`${count(insight.draws)}`);
  await expect(page.getByTestId('power7-report-counts')).toContainText(
    `Draws within the budget${shareOf(atBudget.covered, insight.draws)}`,
  );
  await expect(page.getByTestId('power7-report-counts')).toContainText(
    `Draws above the budget${shareOf(atBudget.exceeding, insight.draws)}`,
  );
  // no currency chosen: amounts with separators and no symbol, and the parameters say so
  await expect(page.getByTestId('power7-report-parameters')).toContainText('Currencynone named');
  // the new parts are there (their figures: the range test below)
  await expect(page.getByTestId('power7-report-limits')).toBeVisible();
  await expect(page.getByTestId('power7-report-exposure')).toBeVisible();
  await expect(page.getByTestId('power7-report-parameters')).toContainText(
    `Budget (fixed)at most ${money(BUDGET)}`,
  );
  await expect(page.getByTestId('power7-coverage-headline')).toContainText(
    `Your budget of ${money(BUDGET)} covers ${percent(atBudget.share)} of draws (${count(atBudget.covered)} of ${count(insight.draws)}).`,
  );
  await expect(page.getByTestId('power7-coverage-headline')).toContainText(
    `Chance a draw pays more than ${money(BUDGET)}: ${shareOf(atBudget.exceeding, insight.draws)}. Expected excess over it, averaged over all draws: ${money(atBudget.expectedExcess)}; when it is exceeded, by ${money(atBudget.meanOvershoot!)} on average.`,
  );
  const rows = page.getByTestId('power7-percentiles').getByRole('row');
  for (const [i, q] of ([50, 90, 95, 99, '99.9'] as const).entries()) {
    await expect(rows.nth(i + 1)).toContainText(money(insight.quantiles[q]));
  }
  await expect(page.getByTestId('power7-jackpot-share')).toHaveText(
    shareOf(insight.jackpotDraws, insight.draws),
  );
  await expect(page.getByTestId('power7-worst-draw')).toContainText(
    `pays ${money(insight.worst.totalPayout)}`,
  );
  await expect(report.getByRole('region', { name: 'Method' })).toContainText(
    `C(${POOL}, 7) of them, is evaluated exactly`,
  );
  // a document: no table toggle, no form
  await expect(report.getByRole('button', { name: 'Show as table' })).toHaveCount(0);
  await expect(report.getByRole('textbox')).toHaveCount(0);

  // on screen: accessible and within the window, light and dark, wide and narrow
  for (const theme of ['light', 'dark'] as const) {
    await applyTheme(page, theme);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await screenshot(page, `power7-report-${width}-${theme}`);
    }
  }

  // in print (dark theme still set): no shell, no Print button, a white page, nothing wider than A4
  await page.setViewportSize({ width: A4_TEXT_WIDTH, height: 1100 });
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.locator('[data-slot="sidebar"]')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(report).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toMatch(
    /rgb\(255, 255, 255\)|oklch\(1 0 0\)/,
  );
  const widest = await page.evaluate(() =>
    Math.max(
      ...[...document.querySelectorAll('body *')].map((e) => e.getBoundingClientRect().right),
    ),
  );
  expect(widest).toBeLessThanOrEqual(A4_TEXT_WIDTH);

  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  const file = path.join(E2E.screenshotsDir, 'power7-report.pdf');
  fs.mkdirSync(E2E.screenshotsDir, { recursive: true });
  fs.writeFileSync(file, pdf);
  const pages = pdfPageCount(pdf);
  expect(pages).toBeGreaterThanOrEqual(1);
  // five at most: the exceedance curve, the limits, the shortfall and the exposure top 10 take the
  // fourth and fifth
  expect(pages).toBeLessThanOrEqual(5);
  expect(pdfTitle(pdf)).toContain('Report · report-week.csv');
  const text = pdfText(file);
  if (text !== null) {
    for (const key of ['report-week.csv', 'Parameters', 'Method', money(insight.quantiles[99])]) {
      expect(text).toContain(key);
    }
    expect(text).not.toContain('All sessions');
  }
  await page.emulateMedia({ media: 'screen' });
  await applyTheme(page, 'light');
});

/** 400 tickets on a pool of 20 (77,520 draws), the scenarios spec's generator. */
function rangeCsv() {
  const lines = ['customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7'];
  let x = 7;
  for (let i = 0; i < 400; i++) {
    const picked = new Set<number>();
    while (picked.size < 7) picked.add(1 + ((x = (x * 48271) % 2147483647) % 20));
    lines.push(`C${i},Customer ${i},555-${i},${[...picked].sort((a, b) => a - b).join(',')}`);
  }
  return lines.join('\n') + '\n';
}

const euro = (v: number) => v.toLocaleString('en-US', { style: 'currency', currency: 'EUR' });

test('the report of a range budget in euros: both sides of the range, the limits, the shortfall and the exposure top 10', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const [MIN, MAX] = [1_000, 1_500];
  const session = await uploadDone(request, rangeCsv(), 'range-week.csv', {
    budget_type: 'range',
    budget_min: String(MIN),
    budget_max: String(MAX),
    payout_3: '1',
    payout_4: '5',
    payout_5: '50',
    payout_6: '500',
    payout_7: '5000',
    pool_size: '20',
    currency: 'EUR',
  });
  await signIn(page);
  await page.goto(`/app/power7/report?session=${session}`);
  const report = page.getByTestId('power7-report');
  await expect(report.getByRole('heading', { level: 1 })).toHaveText('range-week.csv');

  const headers = await adminHeaders(request);
  const asked = await request.post(`${E2E.power7Url}/api/insight/`, {
    headers,
    data: {
      session,
      budgets: [MAX],
      ranges: [{ min: MIN, max: MAX }],
      exceedTargets: [0.001, 0.0001, 0.000001],
      shortfallLevels: [0.99, 0.999],
    },
  });
  expect(asked.status()).toBe(200);
  const insight = (await asked.json()).data as InsightAnswer;
  const range = insight.ranges[0]!;
  expect(insight.draws).toBe(77_520);
  // a range on both sides: most draws cost less than its minimum, which is not poor coverage
  const counts = page.getByTestId('power7-report-counts');
  await expect(counts).toContainText(
    `Draws within the budget range${shareOf(range.within, insight.draws)}`,
  );
  await expect(counts).toContainText(
    `Draws below its minimum (cost less)${shareOf(range.below, insight.draws)}`,
  );
  await expect(counts).toContainText(
    `Draws above its maximum (cost more)${shareOf(range.above, insight.draws)}`,
  );
  expect(range.below).toBeGreaterThan(0);
  expect(range.above).toBeGreaterThan(0);
  await expect(page.getByTestId('power7-range-sides')).toContainText(
    `pay less than its minimum of ${euro(MIN)}`,
  );
  // the session's currency on every amount of the parameters
  const parameters = page.getByTestId('power7-report-parameters');
  await expect(parameters).toContainText(`Budget (range)from ${euro(MIN)} to ${euro(MAX)}`);
  await expect(parameters).toContainText(`Payout, 7 matches${euro(5000)}`);
  await expect(parameters).toContainText('CurrencyEUR');

  // the limits for 1 in 1,000 / 10,000 / 1,000,000, as the service counts them
  const limits = page.getByTestId('power7-report-limits').getByRole('row');
  await expect(limits).toHaveCount(4);
  const words = [
    '1 in 1,000 draws (0.1 %)',
    '1 in 10,000 draws (0.01 %)',
    '1 in 1,000,000 draws (< 0.01 %)',
  ];
  for (const [i, limit] of insight.limits.entries()) {
    const row = limits.nth(i + 1);
    await expect(row).toContainText(words[i]!);
    await expect(row).toContainText(euro(limit.budget));
    await expect(row).toContainText(
      limit.exceeding === 0 ? 'none' : countsOf(limit.exceeding, insight.draws),
    );
  }
  // 1 in a million is finer than one draw in 77,520: the worst draw, said so
  expect(insight.limits[2]!.budget).toBe(insight.max);
  await expect(limits.nth(3)).toContainText('finer than 1 draw in 77,520: the worst draw');
  const shortfall = page.getByTestId('power7-report-shortfall');
  for (const [i, level] of ['99 %', '99.9 %'].entries()) {
    const s = insight.shortfall[i]!;
    await expect(shortfall).toContainText(
      `Expected shortfall at ${level}${euro(s.value)}: the mean total of the ${count(s.draws)} most expensive draws`,
    );
  }

  // the exposure top 10 over the budget's maximum, as the service ranks it
  const ranked = await request.post(`${E2E.power7Url}/api/power7/sessions/${session}/exposure/`, {
    headers,
    data: { over: MAX, by: 'combination', limit: 10 },
  });
  expect(ranked.status()).toBe(200);
  const exposure = (await ranked.json()).data as ExposureAnswer;
  expect(exposure.items).toHaveLength(10);
  const top = page.getByTestId('power7-report-exposure');
  await expect(top).toContainText(
    `${percent(exposure.draws / insight.draws)} of draws (${countsOf(exposure.draws, insight.draws)}) pay more than the budget of ${euro(MAX)}, ${euro(exposure.tailTotal)} in all.`,
  );
  const rows = top.getByTestId('power7-exposure-row');
  await expect(rows).toHaveCount(10);
  for (const [i, item] of exposure.items.entries()) {
    await expect(rows.nth(i)).toContainText(item.combo!);
    await expect(rows.nth(i)).toContainText(euro(item.tailPayout));
  }
  // a report is a document: the combinations are not links there
  await expect(top.getByRole('link')).toHaveCount(0);
  await checkScreens(page, 'power7-report-risk', async (p) => {
    await expect(p.getByTestId('power7-report-exposure')).toBeVisible();
  });

  // the exposure call failing: one line says so, the rest of the report stands. (A failure the
  // real service cannot be made to give on demand, so this one answer is intercepted.)
  await page.route('**/exposure/', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        message: 'The service is busy; try again in a minute.',
        code: 'SERVICE_UNAVAILABLE',
        status: 503,
        data: null,
        errors: [],
      }),
    }),
  );
  await page.reload();
  await expect(page.getByTestId('power7-report-exposure-error')).toContainText(
    'The exposure ranking could not be loaded',
  );
  await expect(page.getByTestId('power7-report-limits')).toBeVisible();
  await expect(page.getByTestId('power7-report-counts')).toContainText('Draws below its minimum');
  await checkScreens(page, 'power7-report-exposure-error', async (p) => {
    await expect(p.getByTestId('power7-report-exposure-error')).toBeVisible();
  });
});
