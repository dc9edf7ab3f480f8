import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { InsightAnswer } from '@pa/contracts/power7';
import { E2E } from '../playwright.config';
import { adminHeaders, clearAdminSessions, sessionPageSettled } from './power7-support';
import { checkScreens, downloadOf, signIn } from './support';

/**
 * The risk view of a finished Power 7 session (issue #40) against the real services: the
 * exceedance curve, the limit calculator, the expected shortfall, the exposure ranking by
 * combination and by customer, and a range budget's two sides — every figure checked against an
 * all-draws count made here from the same file.
 */

const expect = baseExpect.configure({ timeout: 20_000 });

const PAYOUTS = [10, 100, 1_000, 10_000, 1_000_000] as const;

interface Ticket {
  id: string | null;
  name: string | null;
  numbers: number[];
}

function random(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function randomTickets(count: number, pool: number, seed: number): number[][] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const picked = new Set<number>();
    while (picked.size < 7) picked.add(1 + Math.floor(next() * pool));
    return [...picked].sort((a, b) => a - b);
  });
}

/** Every draw of 7 from the pool: its numbers, its total and each ticket's payout in it. */
function everyDraw(tickets: Ticket[], pool: number) {
  const draws: { combo: number[]; total: number; paid: number[] }[] = [];
  const walk = (from: number, picked: number[]) => {
    if (picked.length === 7) {
      const drawn = new Set(picked);
      const paid = tickets.map((t): number => {
        const m = t.numbers.filter((n) => drawn.has(n)).length;
        return m >= 3 ? PAYOUTS[m - 3]! : 0;
      });
      draws.push({ combo: picked, total: paid.reduce((a, b) => a + b, 0), paid });
      return;
    }
    for (let n = from; n <= pool; n++) walk(n + 1, [...picked, n]);
  };
  walk(1, []);
  return draws;
}

/** The tail over a line, counted here: draws above it, their sum, and each key's payouts in them. */
function tailOver(draws: ReturnType<typeof everyDraw>, tickets: Ticket[], over: number) {
  const above = draws.filter((d) => d.total > over);
  const byKey = (key: (t: Ticket) => string) => {
    const sums = new Map<string, number>();
    for (const d of above) {
      d.paid.forEach((p, i) => {
        if (p > 0) sums.set(key(tickets[i]!), (sums.get(key(tickets[i]!)) ?? 0) + p);
      });
    }
    return [...sums].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  };
  return {
    draws: above.length,
    total: above.reduce((s, d) => s + d.total, 0),
    combos: byKey((t) => t.numbers.join('-')),
    customers: byKey((t) => t.id ?? ''),
  };
}

const euro = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' });
const plain = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const count = (n: number) => n.toLocaleString('en-US');
const cents = (v: number) => Math.round(v * 100) / 100;
/** The page's percent rule (lib/format.ts): never 0.00 % or 100.00 % unless exact. */
function percent(share: number) {
  if (share <= 0) return '0 %';
  if (share >= 1) return '100 %';
  const p = share * 100;
  const text = p >= 99.9 || p < 0.1 ? p.toFixed(2) : p.toFixed(1);
  if (Number(text) === 0) return '< 0.01 %';
  if (Number(text) === 100) return '> 99.99 %';
  return `${text} %`;
}
const countsOf = (part: number, whole: number) =>
  `${count(part)} of ${count(whole)}${part > 0 && part / whole < 0.01 ? `, 1 in ${count(Math.round(whole / part))} draws` : ''}`;
const shareOf = (part: number, whole: number) =>
  `${percent(part / whole)} (${countsOf(part, whole)})`;

/** Uploads through the form: a fixed budget or a range, the payouts, the pool, maybe a currency. */
async function analyse(
  page: Page,
  file: string,
  o: { pool: number; budget: number | [number, number]; currency?: string },
) {
  await page.goto('/app/power7/parameters');
  await expect(page.getByRole('button', { name: 'Upload and analyse' })).toBeEnabled();
  if (await page.getByTestId('power7-carried-over').isVisible())
    await page.getByRole('button', { name: 'Start from the defaults' }).click();
  await page.locator('#customer_file').setInputFiles(file);
  await expect(page.getByTestId('power7-preview')).toBeVisible();
  if (Array.isArray(o.budget)) {
    await page.getByLabel('Range: between two amounts').check();
    await page.getByLabel('Minimum budget').fill(String(o.budget[0]));
    await page.getByLabel('Maximum budget').fill(String(o.budget[1]));
  } else {
    await page.getByLabel('Fixed: at most an amount').check();
    await page.getByLabel('Budget', { exact: true }).fill(String(o.budget));
  }
  for (const [i, payout] of PAYOUTS.entries()) {
    await page.getByLabel(`${i + 3} matches`).fill(String(payout));
  }
  await page.getByLabel(/^Pool size/).fill(String(o.pool));
  if (o.currency) await page.getByLabel(/^Currency/).fill(o.currency);
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await sessionPageSettled(page);
  await expect(page.getByTestId('power7-risk')).toBeVisible();
  return new URL(page.url()).searchParams.get('session')!;
}

async function insightOf(request: APIRequestContext, body: object): Promise<InsightAnswer> {
  const answer = await request.post(`${E2E.power7Url}/api/insight/`, {
    headers: await adminHeaders(request),
    data: body,
  });
  expect(answer.status()).toBe(200);
  const json = await answer.json();
  return (json.data ?? json) as InsightAnswer;
}

test.beforeEach(async ({ request }) => clearAdminSessions(request));

test('risk view of a heavy-tailed file: exceedance, limits, shortfall, exposure by combination and customer', async ({
  page,
  request,
}) => {
  test.setTimeout(600_000);
  const POOL = 14;
  const random400 = randomTickets(400, POOL, 40);
  const hot = random400[0]!;
  const tickets: Ticket[] = [
    ...random400.map((numbers, i) => ({ id: `C${1000 + i}`, name: `Customer ${i}`, numbers })),
    // one customer buys the first combination 40 more times: it makes the worst draw
    ...Array.from({ length: 40 }, () => ({ id: '0012345', name: 'Hot Buyer', numbers: hot })),
  ];
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'p7-risk-')), 'risk-week.csv');
  fs.writeFileSync(
    file,
    [
      'customer_id,name,n1,n2,n3,n4,n5,n6,n7',
      ...tickets.map((t) => `${t.id},${t.name},${t.numbers.join(',')}`),
    ].join('\n') + '\n',
  );
  const draws = everyDraw(tickets, POOL);
  const n = draws.length;
  const sorted = draws.map((d) => d.total).sort((a, b) => a - b);
  const budget = sorted[Math.floor(n * 0.9)]!;
  const above = (b: number) => sorted.filter((t) => t > b).length;
  const limitFor = (p: number) => sorted[n - 1 - Math.floor(p * n)]!;
  const money = (v: number) => euro.format(v);

  await signIn(page);
  const session = await analyse(page, file, { pool: POOL, budget, currency: 'EUR' });
  expect(n).toBe(3432);

  // the exceedance curve: log scales with titles and the currency, the worst draw marked and counted
  const curve = page.getByTestId('power7-exceedance');
  await expect(curve.locator('svg.recharts-surface')).toBeVisible();
  await expect(curve).toContainText('Total in EUR (log scale)');
  await expect(curve).toContainText('Chance of paying more');
  await expect(curve).toContainText('1 in 1K');
  const max = sorted[n - 1]!;
  await expect(curve).toContainText(
    `The worst draw pays ${money(max)} (${countsOf(sorted.filter((t) => t === max).length, n)}).`,
  );
  await curve.getByRole('button', { name: 'Show as table' }).click();
  const curveRows = page.getByRole('table', { name: 'Exceedance curve' }).getByRole('row');
  await expect(curveRows.last()).toContainText(`Worst draw, ${money(max)}`);
  await expect(curveRows.nth(1)).toContainText(shareOf(above(sorted[0]!), n));
  await curve.getByRole('button', { name: 'Show as chart' }).click();

  // preset limits, expected shortfall and the budget's mean overshoot, exact
  const presets = page.getByTestId('power7-preset-limits').getByRole('row');
  await expect(presets.nth(1)).toContainText(`1 in 100 (1.0 %)${money(limitFor(0.01))}`);
  await expect(presets.last()).toContainText(`never (the worst draw)${money(max)}`);
  const tail = page.getByTestId('power7-tail-figures');
  const top = Math.ceil(0.01 * n - 1e-9);
  const es99 = cents(sorted.slice(n - top).reduce((a, b) => a + b, 0) / top);
  await expect(tail).toContainText(
    `Expected shortfall at 99 %${money(es99)}: the mean total of the ${count(top)} most expensive draws`,
  );
  const over = sorted.filter((t) => t > budget);
  const overshoot = cents(over.reduce((s, t) => s + t - budget, 0) / over.length);
  await expect(page.getByTestId('power7-mean-overshoot')).toHaveText(
    `Overshot by ${money(overshoot)} on average; ${shareOf(over.length, n)} of draws pay more.`,
  );

  // the limit calculator: a chance as "1 in N", as a percentage, a wrong one, an expected excess
  const readOut = page.getByTestId('power7-limit');
  const chanceText = (p: number, words: string) => {
    const b = limitFor(p);
    const more = above(b);
    return `The smallest budget with a chance of exceeding of at most ${words}: ${money(b)}. ${more ? `Draws paying more: ${shareOf(more, n)}.` : 'No draw pays more.'}`;
  };
  await expect(readOut).toHaveText(chanceText(0.001, `1 in 1,000 (${percent(0.001)})`));
  const target = page.getByLabel('Chance of exceeding (1 in N, or %)');
  await target.fill('2 %');
  await expect(readOut).toHaveText(chanceText(0.02, `1 in 50 (${percent(0.02)})`));
  await target.fill('0.001');
  await expect(page.getByText('Write a chance as "1 in 1000" or as a percentage')).toBeVisible();
  await expect(readOut).toHaveText('Correct the target to see its budget.');
  await page.getByLabel('An expected excess').check();
  await page.getByLabel('Expected excess per draw (EUR)').fill('50');
  const excessLimit = (await insightOf(request, { session, excessTargets: [50] })).excessLimits[0]!;
  const excessAt = (b: number) => sorted.reduce((s, t) => s + Math.max(0, t - b), 0) / n;
  expect(excessAt(excessLimit.budget)).toBeLessThanOrEqual(50);
  expect(excessAt(excessLimit.budget - 0.01)).toBeGreaterThan(50);
  await expect(readOut).toHaveText(
    `The smallest budget with an expected excess of at most ${money(50)} per draw: ${money(excessLimit.budget)}. Draws paying more: ${shareOf(above(excessLimit.budget), n)}.`,
  );

  // exposure by combination over the budget: the hot combination first, exact, linked to its draw
  const exposure = page.getByTestId('power7-exposure');
  await expect(exposure.getByLabel('Over the line (EUR)')).toHaveValue(String(budget));
  const ref = tailOver(draws, tickets, budget);
  await expect(page.getByTestId('power7-exposure-summary')).toContainText(
    `${percent(ref.draws / n)} of draws (${countsOf(ref.draws, n)}) pay more than ${money(budget)}, ${money(ref.total)} in all. ${count(ref.combos.length)} combinations are paid in them`,
  );
  const rows = page.getByTestId('power7-exposure-row');
  const [hotKey, hotTail] = ref.combos[0]!;
  expect(hotKey).toBe(hot.join('-'));
  await expect(rows.first()).toContainText(hot.join('-'));
  await expect(rows.first().getByRole('cell').nth(2)).toHaveText('41');
  await expect(rows.first()).toContainText(money(hotTail));
  await expect(rows.first()).toContainText(percent(hotTail / ref.total));
  await expect(page.getByRole('columnheader', { name: 'Tail payout (EUR)' })).toBeVisible();

  // the full ranking as CSV, every combination paid in the tail
  const csv = await downloadOf(page, () =>
    exposure.getByRole('button', { name: 'Download CSV' }).click(),
  );
  expect(csv.suggestedFilename()).toMatch(/exposure.*\.csv$/);
  const lines = fs
    .readFileSync((await csv.path())!, 'utf8')
    .trim()
    .split('\n');
  const comboLines = lines.filter((l) => /^"?\d+(-\d+){6}"?,/.test(l));
  expect(comboLines.length).toBe(ref.combos.length);
  expect(comboLines[0]).toContain(hot.join('-'));

  await checkScreens(page, 'power7-risk', async (p) => {
    await expect(p.getByTestId('power7-exposure-row').first()).toBeVisible();
  });

  // by customer: the hot buyer's id keeps its leading zeros
  await exposure.getByRole('radio', { name: 'By customer' }).check();
  await expect(page.getByRole('columnheader', { name: 'Customer id' })).toBeVisible();
  const [firstCustomer, customerTail] = ref.customers[0]!;
  expect(firstCustomer).toBe('0012345');
  await expect(rows.first()).toContainText('0012345');
  await expect(rows.first()).toContainText('Hot Buyer');
  await expect(rows.first()).toContainText(money(customerTail));
  await expect(rows).toHaveCount(Math.min(20, ref.customers.length));
  await checkScreens(page, 'power7-risk-customers', async (p) => {
    await expect(p.getByTestId('power7-exposure-row').first()).toBeVisible();
  });

  // a line above the worst draw: nothing to rank, said in words
  await exposure.getByLabel('Over the line (EUR)').fill(String(max));
  await expect(page.getByTestId('power7-exposure-empty')).toContainText(
    `No draw pays more than ${money(max)}`,
  );
  await exposure.getByLabel('Over the line (EUR)').fill('10,000');
  await expect(exposure.getByText('Use digits only, no thousands separators: 10000')).toBeVisible();

  // a combination opens the winners of its own draw: the hot buyer's 40 tickets win the jackpot there
  await exposure.getByRole('radio', { name: 'By combination' }).check();
  await exposure.getByLabel('Over the line (EUR)').fill(String(budget));
  await rows.first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/app/power7/results\\?.*combo=${hot.join('-')}`));
  await expect(page.getByRole('tab', { name: /7 matches/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByText('Hot Buyer').first()).toBeVisible();
});

test('a range budget says both sides; a file without customer ids says why it has no customer ranking', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const POOL = 10;
  const tickets: Ticket[] = randomTickets(40, POOL, 7).map((numbers) => ({
    id: null,
    name: null,
    numbers,
  }));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'p7-risk-')), 'no-ids.csv');
  fs.writeFileSync(file, ['numbers', ...tickets.map((t) => t.numbers.join(' '))].join('\n') + '\n');
  const draws = everyDraw(tickets, POOL);
  const n = draws.length;
  const sorted = draws.map((d) => d.total).sort((a, b) => a - b);
  const [lo, hi] = [sorted[40]!, sorted[110]!];
  const below = sorted.filter((t) => t < lo).length;
  const over = sorted.filter((t) => t > hi).length;
  const money = (v: number) => plain.format(v);
  expect(below * over).toBeGreaterThan(0);

  await signIn(page);
  await analyse(page, file, { pool: POOL, budget: [lo, hi] });
  expect(n).toBe(120);
  await expect(page.getByTestId('power7-range-sides')).toHaveText(
    `Outside it: ${percent(below / n)} of draws (${countsOf(below, n)}) pay less than its minimum of ${money(lo)}; ${shareOf(over, n)} pay more than its maximum of ${money(hi)}.`,
  );
  // the exposure line starts at the range's maximum; customers cannot be ranked without ids
  const exposure = page.getByTestId('power7-exposure');
  await expect(exposure.getByLabel('Over the line')).toHaveValue(String(hi));
  await expect(page.getByTestId('power7-exposure-row').first()).toBeVisible();
  // (by keyboard: the two rankings are one radio group, the arrow key moves between them)
  await exposure.getByRole('radio', { name: 'By combination' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(exposure.getByRole('radio', { name: 'By customer' })).toBeChecked();
  await expect(page.getByTestId('power7-exposure-refused')).toContainText('no customer id column');
  await expect(exposure.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  await checkScreens(page, 'power7-risk-no-customers', async (p) => {
    await expect(p.getByTestId('power7-exposure-refused')).toBeVisible();
  });

  // a Power 7 service without the exposure endpoint (404): said once, the rest of the page stands
  await page.route('**/exposure/', (route) =>
    route.fulfill({
      status: 404,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        message: 'Not found',
        code: 'NOT_FOUND',
        status: 404,
      }),
    }),
  );
  await exposure.getByRole('radio', { name: 'By combination' }).check();
  await exposure.getByLabel('Over the line').fill(String(lo));
  await expect(page.getByTestId('power7-exposure-unavailable')).toContainText(
    'The exposure ranking is not available',
  );
  await expect(page.getByTestId('power7-limit')).toContainText('The smallest budget');
  await checkScreens(page, 'power7-risk-exposure-unavailable', async (p) => {
    await expect(p.getByTestId('power7-exposure-unavailable')).toBeVisible();
  });
  await page.unroute('**/exposure/');

  // a failing service: the ranking and the calculator each say so with a way to try again
  const failing = { status: 500, contentType: 'application/json' };
  const failure = JSON.stringify({
    success: false,
    message: 'The Power 7 service failed.',
    code: 'INTERNAL_ERROR',
    status: 500,
  });
  await page.route('**/exposure/', (route) => route.fulfill({ ...failing, body: failure }));
  // the calculator's own question (a chance, no budgets), not the page's other insight questions
  await page.route('**/api/insight/', (route) => {
    const body = route.request().postDataJSON() as { exceedTargets?: number[]; budgets?: number[] };
    return body.exceedTargets && !body.budgets
      ? route.fulfill({ ...failing, body: failure })
      : route.fallback();
  });
  // (a line not asked before: an answer in the cache would not be asked again)
  await exposure.getByLabel('Over the line').fill(String(lo + 1));
  await expect(page.getByText('The exposure ranking could not be loaded')).toBeVisible();
  await page.getByLabel('Chance of exceeding (1 in N, or %)').fill('1 in 7');
  await expect(page.getByTestId('power7-limit')).toHaveText(
    'The service could not answer; try again in a moment.',
  );
  await checkScreens(page, 'power7-risk-failed', async (p) => {
    await expect(p.getByText('The exposure ranking could not be loaded')).toBeVisible();
  });
  // the service answers again: Try again brings the figures back
  await page.unroute('**/exposure/');
  await page.unroute('**/api/insight/');
  await page.getByTestId('power7-limits').getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('power7-limit')).toContainText('The smallest budget');
  await exposure.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('power7-exposure-row').first()).toBeVisible();
});
