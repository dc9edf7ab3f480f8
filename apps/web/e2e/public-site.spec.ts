import { gzipSync } from 'node:zlib';
import { expect, test, type Page, type Response } from '@playwright/test';
import { E2E } from '../playwright.config';
import { ADMIN, expectAccessible, screenshot, signIn } from './support';

test('landing page leads to sign-in, unknown paths show the not-found page', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Power Analyzer' })).toBeVisible();
  await expect(page.getByText('The All in one tool for your business.')).toBeVisible();
  await expect(page.getByAltText('Power Analyzer Logo').first()).toBeVisible();
  await expect(page.getByText(`© ${new Date().getFullYear()} Power Analyzer`)).toBeVisible();

  // The first landing page renders before the app's code; its link hands over to the app.
  await page.getByRole('main').getByRole('link', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByLabel('User name or email')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Power Analyzer' })).toBeVisible();

  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('both services answer their liveness checks in the envelope', async ({ request }) => {
  for (const base of [E2E.portalUrl, E2E.power7Url]) {
    await expect
      .poll(async () => (await request.get(`${base}/api/live/`)).status(), { timeout: 30_000 })
      .toBe(200);
    const body = await (await request.get(`${base}/api/live/`)).json();
    expect(body).toMatchObject({ success: true, code: 'OK', status: 200, data: { live: true } });
  }
  const missing = await request.get(`${E2E.portalUrl}/api/nothing-here`);
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
});

test('the built app is served precompressed, hashed assets cached for a year', async ({
  request,
}) => {
  const index = await request.get('/', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(index.headers()['cache-control']).toBe('no-cache');
  const script = /<script[^>]+src="([^"]+\.js)"/.exec(await index.text())?.[1];
  expect(script).toMatch(/^\/assets\/index-[\w-]+\.js$/);
  const asset = await request.get(script!, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(asset.status()).toBe(200);
  expect(asset.headers()['content-encoding']).toBe('br');
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});

/** The gzipped size of every script `path` loads until the network is idle, and their addresses. */
async function firstLoadScripts(page: Page, path: string, ready: () => Promise<void>) {
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  await page.goto(path);
  await ready();
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all(
    scripts.map(async (response) => gzipSync(await response.body(), { level: 9 }).length),
  );
  return { total: sizes.reduce((sum, size) => sum + size, 0), urls: scripts.map((r) => r.url()) };
}

test('the landing page loads at most 100 kB of gzipped JavaScript (issue #12)', async ({
  page,
}) => {
  const { total, urls } = await firstLoadScripts(page, '/', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Power Analyzer' })).toBeVisible(),
  );
  expect(urls.length).toBeGreaterThan(0);
  expect(total, urls.join('\n')).toBeLessThanOrEqual(100 * 1024);
});

test('the sign-in page loads at most 100 kB of gzipped JavaScript until used (issue #27)', async ({
  page,
}) => {
  const { total, urls } = await firstLoadScripts(page, '/auth/signin', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible(),
  );
  expect(urls.length).toBeGreaterThan(0);
  // Neither the router, the store nor the form library: they load once the visitor types.
  expect(urls.join('\n')).not.toMatch(/\/(app|auth|power7-api)-[\w-]+\.js/);
  expect(total, urls.join('\n')).toBeLessThanOrEqual(100 * 1024);

  // The same card as the app's: accessible and legible, wide and narrow, light and dark.
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await screenshot(page, `signin-first-${colorScheme}-${width}`);
      await expectAccessible(page);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The page hands what was typed over to the app's, which sends it: the answer shows there.
  await page.getByLabel('User name or email').fill(ADMIN.userName);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(/invalid credentials/i);
  await expect(page.getByLabel('User name or email')).toHaveValue(ADMIN.userName);
  await expect(page).toHaveURL(/\/auth\/signin$/);
});

/** Collects the page's Content-Security-Policy violations (what Lighthouse reports as an issue). */
async function recordCspViolations(page: Page) {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('csp-violation ')) violations.push(message.text());
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.log(
        `csp-violation ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`,
      ),
    ),
  );
  return violations;
}

test('no CSP violation on the landing page, the sign-in form and in the app', async ({ page }) => {
  const violations = await recordCspViolations(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toBeVisible();
  await page.keyboard.press('Escape');
  // The sign-in form builds zod schemas; the app's requests check envelopes with zod.
  await signIn(page);
  await page.waitForLoadState('networkidle');
  expect(violations).toEqual([]);
});
