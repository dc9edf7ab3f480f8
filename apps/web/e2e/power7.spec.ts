import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { adminHeaders, clearAdminSessions, sessionPageSettled } from './power7-support';
import {
  applyTheme,
  checkScreens,
  downloadOf,
  expectAccessible,
  screenshot,
  signIn,
  signInAt,
} from './support';

/**
 * The Power 7 tool through the browser against the real services: a generated customer file with
 * some bad rows is uploaded through the page, and what the page shows is checked against counts
 * made here from the same file.
 */

/** Page loads on the shared 2-core machine can take longer than the default 5 s. */
const expect = baseExpect.configure({ timeout: 20_000 });

const POOL = 35;
const TICKETS = 3000;
const PAYOUTS = [1, 5, 50, 500, 5000] as const;
const BUDGET = 2000;

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Ticket {
  line: number;
  numbers: number[];
}

function makeFile() {
  const next = random(7);
  const lines = ['customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7'];
  const tickets: Ticket[] = [];
  const bad = new Map<number, string>();
  for (let i = 0; i < TICKETS; i++) {
    const picked = new Set<number>();
    while (picked.size < 7) picked.add(1 + Math.floor(next() * POOL));
    const numbers = [...picked].sort((a, b) => a - b);
    lines.push(
      `C${i + 1},Customer ${i + 1},555-${String(i).padStart(4, '0')},${numbers.join(',')}`,
    );
    tickets.push({ line: lines.length, numbers });
    if (i % 700 === 350) {
      lines.push(`X${i},Out of pool,555-0000,1,2,3,4,5,6,${POOL + 9}`);
      bad.set(lines.length, 'out of pool');
      lines.push(`Y${i},Too few,555-0000,1,2,3,4,5,6,`);
      bad.set(lines.length, 'wrong count');
    }
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'p7-e2e-')), 'customers.csv');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return { file, tickets, bad };
}

const fixture = makeFile();

/** Winners of a draw per match type, counted here independently of the service. */
function winnersOf(numbers: number[]) {
  const drawn = new Set(numbers);
  const counts: Record<number, number> = { 3: 0, 4: 0, 5: 0, 6: 0, 7: 0 };
  for (const t of fixture.tickets) {
    const m = t.numbers.filter((n) => drawn.has(n)).length;
    if (m >= 3) counts[m]!++;
  }
  return counts;
}

const count = (n: number) => n.toLocaleString('en-US');

/** Creates a user of Demo Company through the portal API (as its administrator), with permissions. */
async function createUser(
  request: APIRequestContext,
  user: { userName: string; password: string; permissions?: string[] },
) {
  const auth = await adminHeaders(request);
  const permissionIds: string[] = [];
  for (const code of user.permissions ?? []) {
    const listed = await request.get(`${E2E.portalUrl}/api/permissions?search=${code}`, {
      headers: auth,
    });
    const found = ((await listed.json()).data.items as { _id: string; code: string }[]).find(
      (p) => p.code === code,
    );
    expect(found, code).toBeTruthy();
    permissionIds.push(found!._id);
  }
  const created = await request.post(`${E2E.portalUrl}/api/users`, {
    headers: auth,
    data: {
      userName: user.userName,
      email: `${user.userName}@demo.local`,
      userFirstName: 'Test',
      userLastName: 'User',
      password: user.password,
      permissionIds,
    },
  });
  expect(created.status()).toBe(201);
}

test.describe.configure({ mode: 'serial' });

// this spec counts the administrator's sessions: it starts from none
test.beforeAll(async ({ request }) => clearAdminSessions(request));

test('upload, progress, rejected rows, budget insight, filters, winners and downloads', async ({
  page,
}) => {
  test.setTimeout(900_000);
  await signIn(page);
  await page.getByRole('link', { name: 'Power 7' }).first().click();
  await expect(page).toHaveURL(/\/app\/power7$/);
  await expect(page.getByRole('heading', { name: 'Power 7', level: 1 })).toBeVisible();
  await expect(page.getByTestId('power7-no-sessions')).toBeVisible();
  await checkScreens(page, 'power7-home-empty', async (p) => {
    await expect(p.getByTestId('power7-no-sessions')).toBeVisible();
  });

  await page.getByRole('link', { name: 'New analysis' }).first().click();
  await expect(page).toHaveURL(/\/app\/power7\/parameters$/);
  // the shared schema: nothing typed yet → field errors, no upload
  await page.locator('#customer_file').setInputFiles(fixture.file);
  await expect(page.getByTestId('power7-preview')).toContainText('customer id');
  await expect(page.getByTestId('power7-preview')).toContainText('n7');
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(page.getByText('The budget is required.')).toBeVisible();
  await page.getByLabel('Range: between two amounts').check();
  await page.getByLabel('Minimum budget').fill('10');
  await page.getByLabel('Maximum budget').fill('5');
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(
    page.getByText('The maximum budget must not be less than the minimum budget.'),
  ).toBeVisible();
  await page.getByLabel('Fixed: at most an amount').check();
  await page.getByLabel('Budget', { exact: true }).fill(String(BUDGET));
  for (const [i, payout] of PAYOUTS.entries()) {
    await page.getByLabel(`${i + 3} matches`).fill(String(payout));
  }
  await checkScreens(page, 'power7-parameters', async (p) => {
    await expect(p.getByRole('heading', { name: 'New analysis' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'Upload and analyse' }).click();

  await expect(page).toHaveURL(/\/app\/power7\/process\?session=/, { timeout: 30_000 });
  const session = new URL(page.url()).searchParams.get('session')!;
  await expect(page.getByTestId('power7-done')).toBeVisible({ timeout: 90_000 });
  // a reload shows the same session
  await page.reload();
  await expect(page.getByTestId('power7-done')).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(new RegExp(`session=${session}`));

  // rejected rows with their line numbers
  const rejected = page.getByTestId('power7-rejected');
  await expect(rejected).toContainText(`${fixture.bad.size} rows were rejected`);
  for (const line of fixture.bad.keys()) {
    await expect(rejected.getByRole('cell', { name: String(line), exact: true })).toBeVisible();
  }
  const report = await downloadOf(page, () =>
    rejected.getByRole('button', { name: 'Download the full report' }).click(),
  );
  expect(report.suggestedFilename()).toBe(`power7-${session}-rejected-rows.csv`);
  const reportText = fs
    .readFileSync((await report.path())!, 'utf8')
    .trim()
    .split('\n');
  expect(reportText.length - 1).toBe(fixture.bad.size);

  // budget insight (its exact figures: the heavy-tailed test below)
  await expect(
    page.getByTestId('power7-histogram').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();
  await page.getByLabel('Budget to try').fill('0');
  await expect(page.getByTestId('power7-coverage')).toContainText('covers 0 % of draws');
  await page.getByLabel('Budget to try').fill('100000000');
  await expect(page.getByTestId('power7-coverage')).toContainText('covers 100 % of draws');

  await checkScreens(page, 'power7-process', async (p) => {
    await expect(p.getByTestId('power7-draw-row').first()).toBeVisible({ timeout: 90_000 });
  });
  // millions of draws do not fit one spreadsheet: the XLSX export says so instead of failing
  const exportBar = page.getByTestId('power7-export');
  await expect(exportBar.getByRole('button', { name: /\(XLSX\)$/ })).toBeDisabled();
  await expect(exportBar).toContainText('do not fit one spreadsheet: export the CSV');
  await expect(exportBar.getByRole('button', { name: /\(CSV\)$/ })).toBeEnabled();

  // a minimum above its maximum is refused in the form, before any request
  let filterCalls = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/filter/')) filterCalls++;
  });
  await page.getByLabel('3 matches at least').fill('5');
  await page.getByLabel('3 matches at most').fill('2');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByTestId('power7-filter-error')).toContainText(
    'The minimum must not be greater than the maximum: 3 matches.',
  );
  expect(filterCalls).toBe(0);
  await page.getByLabel('3 matches at least').fill('');
  await page.getByLabel('3 matches at most').fill('');

  // a filter: number 1 must be drawn, sorted by total payout ascending
  await page.getByRole('button', { name: '1: any', exact: true }).click();
  await page.getByLabel('Sort').selectOption('totalPayout:asc');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/inc=1/);
  await expect(page).toHaveURL(/sort=totalPayout%3Aasc/);
  // focus stays in the list (its title), not on the page body
  await expect(page.getByRole('heading', { name: 'Draws within budget' })).toBeFocused();
  const firstRow = page.getByTestId('power7-draw-row').first();
  await expect(firstRow.getByRole('link')).toHaveAccessibleName(/Winners of draw 1, /);
  // the filter survives a reload
  await page.reload();
  await expect(page.getByRole('button', { name: '1: must be drawn', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByTestId('power7-draw-row').first()).toBeVisible();
  await sessionPageSettled(page);

  // open a draw and check its winners against the independent count
  const drawLabel = (await page
    .getByTestId('power7-draw-row')
    .nth(1)
    .getByRole('link')
    .getAttribute('aria-label'))!;
  const numbers = drawLabel.replace('Winners of draw ', '').split(', ').map(Number);
  await page.getByTestId('power7-draw-row').nth(1).getByRole('link').click();
  await expect(page).toHaveURL(/\/app\/power7\/results\?/);
  const expected = winnersOf(numbers);
  for (const m of [7, 6, 5, 4, 3]) {
    await expect(page.getByRole('tab', { name: new RegExp(`^${m} matches`) })).toContainText(
      `${count(expected[m]!)} ·`,
    );
  }
  await page.getByRole('tab', { name: /^3 matches/ }).click();
  await expect(page.getByTestId('power7-winners')).toContainText(
    `${count(expected[3]!)} winning tickets.`,
  );
  await checkScreens(page, 'power7-results', async (p) => {
    await expect(p.getByTestId('power7-winner-row').first()).toBeVisible({ timeout: 30_000 });
    // at 360 px the tab row scrolls sideways; the chosen tab is scrolled into it
    await expect(p.getByRole('tab', { name: /^3 matches/ })).toBeInViewport({ ratio: 1 });
  });
  // reload keeps the draw and the tab
  await page.reload();
  await expect(page.getByRole('tab', { name: /^3 matches/ })).toHaveAttribute(
    'aria-selected',
    'true',
    { timeout: 30_000 },
  );

  // the two downloads, with the service's names and the right rows
  const combo = numbers.join('-');
  const oneFile = await downloadOf(page, () =>
    page.getByRole('button', { name: '3 matches (CSV)' }).click(),
  );
  expect(oneFile.suggestedFilename()).toBe(`power7-${combo}-match3.csv`);
  // the file starts with the session's parameters, one `# ` line each, then the header and rows
  const rowsOf = (text: string) => {
    const lines = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const header = lines.findIndex((line) => !/^"?# /.test(line));
    expect(header).toBeGreaterThan(5);
    expect(lines.slice(0, header)).toContain(`# session: ${session}`);
    return lines.slice(header);
  };
  const oneRows = rowsOf(fs.readFileSync((await oneFile.path())!, 'utf8'));
  expect(oneRows.length - 1).toBe(expected[3]);
  const allFile = await downloadOf(page, () =>
    page.getByRole('button', { name: 'All winners (CSV)' }).click(),
  );
  expect(allFile.suggestedFilename()).toBe(`power7-${combo}-all.csv`);
  const allRows = rowsOf(fs.readFileSync((await allFile.path())!, 'utf8'));
  expect(allRows.length - 1).toBe([3, 4, 5, 6, 7].reduce((s, m) => s + expected[m]!, 0));
  const workbook = await downloadOf(page, () =>
    page.getByRole('button', { name: 'All winners (XLSX)' }).click(),
  );
  expect(workbook.suggestedFilename()).toBe(`power7-${combo}-all.xlsx`);
  // an XLSX is a ZIP
  expect(
    fs
      .readFileSync((await workbook.path())!)
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');

  // previous / next follow the list's sort: the previous draw is the list's first row
  await page.getByRole('link', { name: 'Previous draw' }).click();
  await expect(page.getByRole('link', { name: 'Previous draw' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Previous draw' })).toBeDisabled();

  // home lists the session; clear all empties it
  await page.goto('/app/power7');
  await expect(page.getByRole('link', { name: 'customers.csv' })).toBeVisible();
  await checkScreens(page, 'power7-home', async (p) => {
    await expect(p.getByRole('link', { name: 'customers.csv' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'Clear all sessions' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('your 1 session');
  // the danger button reads in both themes (the dialog's own checks: axe at both widths)
  await checkScreens(page, 'power7-clear-all-dialog', async (p) => {
    await expect(p.getByRole('alertdialog')).toBeVisible();
  });
  await page.getByRole('button', { name: 'Delete session' }).click();
  await expect(page.getByTestId('power7-no-sessions')).toBeVisible();
  // the cleared session's link now says so
  await page.goto(`/app/power7/process?session=${session}`);
  await expect(page.getByTestId('power7-session-gone')).toBeVisible();
});

test('a user without power7.run sees the 403 state', async ({ page, request }) => {
  test.setTimeout(180_000);
  const password = 'no-power7-user-passphrase';
  await createUser(request, { userName: 'nopower7', password });
  await signInAt(page, '/app/power7', 'nopower7', password);
  await expect(page.getByTestId('power7-forbidden')).toContainText('power7.run');
  await expect(page.getByRole('button', { name: 'New analysis' })).toBeDisabled();
  await page.goto('/app/power7/parameters');
  await expect(page.getByTestId('power7-forbidden')).toBeVisible();
  await checkScreens(page, 'power7-forbidden', async (p) => {
    await expect(p.getByTestId('power7-forbidden')).toBeVisible();
  });
});

/** Fills the parameters step with the fixture's budget and payouts and chooses its file. */
async function fillParameters(page: Page) {
  await page.goto('/app/power7/parameters');
  await page.locator('#customer_file').setInputFiles(fixture.file);
  await expect(page.getByTestId('power7-preview')).toContainText('customer id');
  await page.getByLabel('Fixed: at most an amount').check();
  await page.getByLabel('Budget', { exact: true }).fill(String(BUDGET));
  for (const [i, payout] of PAYOUTS.entries()) {
    await page.getByLabel(`${i + 3} matches`).fill(String(payout));
  }
}

test('an upload can be cancelled; a 401 while polling is refreshed and polling goes on', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page);

  // Cancel: the upload is held in the browser until the user has cancelled it.
  await fillParameters(page);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/upload/', async (route) => {
    await held;
    await route.abort().catch(() => {});
  });
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(page.getByRole('button', { name: 'Cancel upload' })).toBeVisible();
  // while the upload is in flight, reloading or leaving asks first
  expect(
    await page.evaluate(() => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    }),
  ).toBe(true);
  // leaving inside the app asks too, and staying keeps the upload going
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  const leave = page.getByRole('alertdialog', { name: 'Leave while the file is uploading?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Keep uploading' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/\/app\/power7\/parameters$/);
  await expect(page.getByRole('button', { name: 'Cancel upload' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(page.getByText('The upload was cancelled.')).toBeVisible();
  release();
  await page.unroute('**/api/upload/');
  // nothing typed is lost: the same form, values in place, ready to upload again
  await expect(page).toHaveURL(/\/app\/power7\/parameters$/);
  await expect(page.getByLabel('Budget', { exact: true })).toHaveValue(String(BUDGET));
  await expect(page.getByLabel('7 matches')).toHaveValue(String(PAYOUTS[4]));

  // A poll answered 401 (the token ran out mid-poll): the app refreshes, asks again and goes on.
  let refused = 0;
  await page.route('**/api/power7/processing-status/**', async (route) => {
    if (refused++ > 0) return route.continue();
    await route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, code: 'UNAUTHORIZED', message: 'Token expired' }),
    });
  });
  const rotated = page.waitForResponse(
    (r) => r.url().endsWith('/api/accounts/rotate-token') && refused > 0,
  );
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(page).toHaveURL(/\/app\/power7\/process\?session=/, { timeout: 30_000 });
  expect((await rotated).status()).toBe(200);
  await expect(page.getByTestId('power7-done')).toBeVisible({ timeout: 90_000 });
  expect(refused).toBeGreaterThan(1);
  await expect(page).toHaveURL(/\/app\/power7\/process\?session=/);
  await page.unroute('**/api/power7/processing-status/**');
});

test('without power7.download the draws are listed but their winners are locked', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const password = 'run-only-user-passphrase';
  await createUser(request, { userName: 'runonly', password, permissions: ['power7.run'] });
  await signIn(page, 'runonly', password);
  await fillParameters(page);
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(page.getByTestId('power7-done')).toBeVisible({ timeout: 90_000 });
  const draws = page.getByTestId('power7-draws');
  await expect(draws).toContainText('needs the power7.download permission');
  // the first draws page of a fresh session took over 30 s once, on a CI run at load 12; the
  // analysis itself is given 90 s above
  await expect(page.getByTestId('power7-draw-locked').first()).toBeVisible({ timeout: 90_000 });
  await expect(draws.getByRole('link', { name: /Winners of draw/ })).toHaveCount(0);
  await expectAccessible(page);
  // the results step itself answers with the 403 state
  const session = new URL(page.url()).searchParams.get('session')!;
  await page.goto(`/app/power7/results?session=${session}&combo=1-2-3-4-5-6-7&match=3`);
  await expect(page.getByTestId('power7-forbidden')).toContainText('power7.download');
});

test('a file over the service limit is refused before it is sent, naming the limit', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  // the service's status names its limit; a small one here, so the fixture is over it (the real
  // answer, CORS headers included, with the limit changed)
  await page.route('**/api/status/', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    const json = await response.json();
    json.data.uploadMaxBytes = 1000;
    await route.fulfill({ response, json });
  });
  let uploads = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/upload/')) uploads++;
  });
  await fillParameters(page);
  await expect(page.getByText('the largest file the service accepts is 1000 B')).toBeVisible();
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(page.getByText('the largest file the service accepts is 1000 B')).toBeVisible();
  expect(uploads).toBe(0);
  await page.unroute('**/api/status/');
});

/**
 * A heavy-tailed file on a small pool: one ticket bought 300 times, so the draw it names pays far
 * above the rest. Every figure of the budget insight is checked against all 792 draws counted here.
 */
const HOT = { pool: 12, payouts: [10, 100, 1_000, 10_000, 1_000_000] };

function makeHotFile() {
  const next = random(25);
  const tickets: number[][] = [];
  for (let i = 0; i < 400; i++) {
    const picked = new Set<number>();
    while (picked.size < 7) picked.add(1 + Math.floor(next() * HOT.pool));
    tickets.push([...picked].sort((a, b) => a - b));
  }
  for (let i = 0; i < 300; i++) tickets.push(tickets[0]!);
  const lines = ['customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7'];
  tickets.forEach((t, i) => lines.push(`H${i + 1},Hot ${i + 1},555-${i},${t.join(',')}`));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'p7-hot-')), 'hot-ticket.csv');
  fs.writeFileSync(file, lines.join('\n') + '\n');

  const totals: number[] = [];
  const draw = (from: number, picked: number[]) => {
    if (picked.length === 7) {
      const drawn = new Set(picked);
      let total = 0;
      for (const t of tickets) {
        const m = t.filter((n) => drawn.has(n)).length;
        if (m >= 3) total += HOT.payouts[m - 3]!;
      }
      totals.push(total);
      return;
    }
    for (let n = from; n <= HOT.pool; n++) draw(n + 1, [...picked, n]);
  };
  draw(1, []);
  const jackpots = new Set(tickets.map((t) => t.join('-'))).size;
  return { file, totals, sorted: [...totals].sort((a, b) => a - b), jackpots, hot: tickets[0]! };
}

const money = (v: number) =>
  v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** The page's percent rule: one decimal, two near 0 and 100 %. */
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

/** Uploads the hot file; `carriedPool`: the pool the form must say it carried over from the last session. */
async function uploadHot(page: Page, file: string, budget: number, carriedPool?: number) {
  await page.goto('/app/power7/parameters');
  await expect(page.getByRole('button', { name: 'Upload and analyse' })).toBeEnabled();
  const notice = page.getByTestId('power7-carried-over');
  if (carriedPool !== undefined) {
    // the last session fills the form in: it says so, pool first, and the defaults are one click away
    await expect(notice).toContainText(`pool of ${carriedPool} numbers (the default is 35)`);
    await screenshot(page, 'power7-parameters-carried-over-1280-light');
  }
  if (await notice.isVisible()) {
    await page.getByRole('button', { name: 'Start from the defaults' }).click();
    await expect(page.getByLabel('Budget', { exact: true })).toHaveValue('');
    await expect(page.getByLabel(/^Pool size/)).toHaveValue('35');
  }
  await page.locator('#customer_file').setInputFiles(file);
  await expect(page.getByTestId('power7-preview')).toContainText('customer id');
  await page.getByLabel('Fixed: at most an amount').check();
  await page.getByLabel('Budget', { exact: true }).fill('10,000');
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(page.getByText('Use digits only, no thousands separators: 10000')).toBeVisible();
  await page.getByLabel('Budget', { exact: true }).fill(String(budget));
  for (const [i, payout] of HOT.payouts.entries()) {
    await page.getByLabel(`${i + 3} matches`).fill(String(payout));
  }
  await page.getByLabel(/^Pool size/).fill(String(HOT.pool));
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await expect(page.getByTestId('power7-done')).toBeVisible({ timeout: 90_000 });
}

test('budget insight on a heavy-tailed file: exact coverage, percentiles, try a budget', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const hot = makeHotFile();
  const n = hot.totals.length;
  expect(n).toBe(792);
  const covered = (budget: number) => hot.totals.filter((t) => t <= budget).length;
  const excess = (budget: number) =>
    Math.round((hot.totals.reduce((s, t) => s + Math.max(0, t - budget), 0) / n) * 100) / 100;
  /** Mean of total − budget over the draws above it, to the cent. */
  const overshoot = (budget: number) =>
    Math.round((excess(budget) * n * 100) / (n - covered(budget))) / 100;
  const budget = hot.sorted[Math.floor(n * 0.85)]!;
  await signIn(page);
  await uploadHot(page, hot.file, budget);

  const insight = page.getByTestId('power7-insight');
  await expect(page.getByTestId('power7-coverage-headline')).toContainText(
    `Your budget of ${money(budget)} covers ${percent(covered(budget) / n)} of draws (${count(covered(budget))} of ${count(n)}).`,
  );
  await expect(page.getByTestId('power7-coverage-headline')).toContainText(
    `Chance a draw pays more than ${money(budget)}: ${shareOf(n - covered(budget), n)}. Expected excess over it, averaged over all draws: ${money(excess(budget))}; when it is exceeded, by ${money(overshoot(budget))} on average.`,
  );
  await expect(insight).toContainText('Every draw is equally likely');
  // q %: the smallest total with at least q % of draws at or below it
  const rows = page.getByTestId('power7-percentiles').getByRole('row');
  for (const [i, q] of [50, 90, 95, 99, 99.9].entries()) {
    await expect(rows.nth(i + 1)).toContainText(money(hot.sorted[Math.ceil((q / 100) * n) - 1]!));
  }
  await expect(page.getByTestId('power7-jackpot-share')).toHaveText(shareOf(hot.jackpots, n));
  const worst = page.getByTestId('power7-worst-draw');
  await expect(worst).toContainText(`pays ${money(hot.sorted[n - 1]!)}`);
  // each chart is one tab stop with a title (arrows move its tooltip), its ticks are not
  const surface = page.getByTestId('power7-histogram').locator('svg.recharts-surface');
  await expect(surface).toHaveAttribute('tabindex', '0');
  await expect(page.getByTestId('power7-histogram').locator('text[tabindex]')).toHaveCount(0);
  // the worst draw's bar is drawn, however small next to the rest
  const bars = page.getByTestId('power7-histogram').locator('.recharts-bar-rectangle path');
  await expect(bars.last()).toBeVisible();
  await page.getByTestId('power7-histogram').getByRole('button', { name: 'Show as table' }).click();
  await expect(
    page.getByRole('table', { name: 'Draws by total payout' }).getByRole('row').last(),
  ).toContainText(money(hot.sorted[n - 1]!));
  await page.getByTestId('power7-histogram').getByRole('button', { name: 'Show as chart' }).click();

  // try a budget: fixed, then a range (both ends count), then one typed with separators
  const median = hot.sorted[Math.floor(n / 2)]!;
  await page.getByLabel('Budget to try').fill(String(median));
  await expect(page.getByTestId('power7-coverage')).toHaveText(
    `A budget of ${money(median)} covers ${percent(covered(median) / n)} of draws (${count(covered(median))} of ${count(n)}). Chance a draw pays more than ${money(median)}: ${shareOf(n - covered(median), n)}. Expected excess over it, averaged over all draws: ${money(excess(median))}; when it is exceeded, by ${money(overshoot(median))} on average.`,
  );
  const [lo, hi] = [hot.sorted[100]!, hot.sorted[600]!];
  const within = hot.totals.filter((t) => t >= lo && t <= hi).length;
  await page.getByLabel('Between two amounts').check();
  await page.getByLabel('Minimum', { exact: true }).fill(String(lo));
  await page.getByLabel('Maximum', { exact: true }).fill(String(hi));
  await expect(page.getByTestId('power7-coverage')).toContainText(
    `${percent(within / n)} of draws (${count(within)} of ${count(n)}) pay between ${money(lo)} and ${money(hi)}.`,
  );
  await page.getByLabel('Maximum', { exact: true }).fill('10,000');
  await expect(page.getByText('Use digits only, no thousands separators: 10000')).toBeVisible();
  await page.getByLabel('At most an amount').check();

  await checkScreens(page, 'power7-insight', async (p) => {
    await expect(p.getByTestId('power7-percentiles')).toBeVisible();
    await expect(p.getByTestId('power7-draw-row').first()).toBeVisible({ timeout: 90_000 });
  });
  // a bar's tooltip is read in the popover's colours, light and dark (recharts would write the
  // count in the bar's own colour: too pale on the popover)
  for (const theme of ['light', 'dark'] as const) {
    await applyTheme(page, theme);
    const histogram = page.getByTestId('power7-histogram');
    await histogram.scrollIntoViewIfNeeded();
    await histogram.locator('.recharts-bar-rectangle').first().hover();
    await expect(histogram.locator('.recharts-tooltip-wrapper')).toContainText(/Draws: \d/);
    await expectAccessible(page);
    if (E2E.screenshots)
      await histogram.screenshot({
        path: path.join(E2E.screenshotsDir, `power7-tooltip-${theme}.png`),
      });
  }
  await applyTheme(page, 'light');
  await page.mouse.move(0, 0);

  // the worst draw opens its winners: the hot ticket's 300 copies win the jackpot
  await worst.getByRole('link', { name: 'See the winners of the worst-case draw' }).click();
  await expect(page).toHaveURL(new RegExp(`combo=${hot.hot.join('-')}`));
  await expect(page.getByTestId('power7-winners')).toContainText('winning tickets.');
  await expect(page.getByRole('tab', { name: /^7 matches/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // nothing qualifies: the budget is below the smallest total, and the page says what that is
  const smallest = hot.sorted[0]!;
  expect(smallest).toBeGreaterThan(1);
  await uploadHot(page, hot.file, smallest - 1, HOT.pool);
  await expect(page.getByTestId('power7-nothing-qualifies')).toContainText(
    `is below the smallest total payout of any draw, ${money(smallest)}`,
  );
  await expect(page.getByTestId('power7-nothing-qualifies-draws')).toContainText(
    `${money(smallest)}`,
  );
  await checkScreens(page, 'power7-insight-nothing', async (p) => {
    await expect(p.getByTestId('power7-nothing-qualifies')).toBeVisible();
  });
});
