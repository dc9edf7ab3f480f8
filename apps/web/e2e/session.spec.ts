import { expect, test, type Page, type Route } from '@playwright/test';
import { E2E } from '../playwright.config';
import {
  ADMIN,
  expectAccessible,
  expOf,
  forgetPersistedSession,
  forgetSignIn,
  passExpiryOf,
  persistedAccessToken,
  screenshot,
  signInWithForm,
} from './support';

/**
 * The refresh token the browser holds: random, and replaced by every rotation, so a rotation is told
 * by it. (Until access tokens had an id of their own, one rotated in the second it was issued came
 * back the same, and a check on the access token failed now and then.)
 */
const refreshCookieOf = async (page: Page) =>
  (await page.context().cookies()).find((c) => c.name === 'refreshToken')?.value;

// The tests stand alone (each makes what it needs, under unique names): they may run on either
// worker's product, so the suite's two workers finish together (docs/benchmarks/test-suite.md).
test.describe.configure({ mode: 'parallel' });

test('guests are sent from the protected area to sign-in', async ({ page }) => {
  await page.goto('/app');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
  await screenshot(page, 'signin-light');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Enter your user name or email')).toBeVisible();
  await page.getByLabel('User name or email').fill(ADMIN.userName);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(/invalid credentials/i);
  await expect(page).toHaveURL(/\/auth\/signin$/);
});

test('sign in, reload, survive token expiry, guest pages redirect, sign out', async ({ page }) => {
  test.setTimeout(120_000);
  await signInWithForm(page, ADMIN.email);
  await expect(page.getByRole('button', { name: /Account menu for/ })).toBeVisible();
  await screenshot(page, 'dashboard-light');
  await expectAccessible(page);

  // Reload keeps the session (only the account session is persisted).
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // A signed-in user is redirected away from the guest-only pages.
  await page.goto('/auth/signin');
  await expect(page).toHaveURL(/\/app$/);

  // A second tab shares the session (and the refresh cookie).
  const tab = await page.context().newPage();
  await tab.goto('/app');
  await expect(tab.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // The token lives as long as the portal is told (`E2E.accessTokenTtl`). Past its expiry on the
  // browser's clock, both tabs use the API at once: their refreshes must not replay the same refresh
  // token (reuse = revoked).
  const first = await persistedAccessToken(page);
  expect(first).toBeTruthy();
  const cookieBefore = await refreshCookieOf(page);
  const lifeMs = expOf(first!) * 1000 - Date.now();
  expect(lifeMs).toBeGreaterThan((E2E.accessTokenTtl - 30) * 1000);
  expect(lifeMs).toBeLessThanOrEqual(E2E.accessTokenTtl * 1000);
  await passExpiryOf(page, first!);
  // The first tab's rotation is held back in the browser for 1.5 s, so the second tab's refresh
  // starts while the first is in flight: the worst case of two tabs sharing one refresh cookie.
  await page.route('**/api/accounts/rotate-token', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const rotated = page.waitForResponse('**/api/accounts/rotate-token');
  const firstTab = page.goto('/app/account/view');
  await page.waitForRequest('**/api/accounts/rotate-token');
  await tab.goto('/app/account/view');
  await firstTab;
  await rotated;
  await page.unroute('**/api/accounts/rotate-token');
  await expect(page.getByText('admin@demo.local')).toBeVisible();
  await expect(tab.getByText('admin@demo.local')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/account\/view$/);
  await expect(tab).toHaveURL(/\/app\/account\/view$/);
  await tab.close();
  expect(await persistedAccessToken(page)).toBeTruthy();
  expect(await refreshCookieOf(page)).not.toBe(cookieBefore);
  await expectAccessible(page);

  // Edit Account changes the name shown in the account menu (and is put back).
  await page.goto('/app/account/edit');
  const firstName = page.getByLabel('First name');
  await expect(firstName).not.toHaveValue('');
  const original = await firstName.inputValue();
  await expectAccessible(page);
  await firstName.fill('Dana');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(/\/app\/account\/view$/);
  await expect(page.getByRole('button', { name: /Account menu for Dana/ })).toBeVisible();
  await page.goto('/app/account/edit');
  await expect(firstName).toHaveValue('Dana');
  await firstName.fill(original);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    page.getByRole('button', { name: new RegExp(`Account menu for ${original}`) }),
  ).toBeVisible();

  // Sign out ends on /auth/signin and the protected area is closed again.
  await page.getByRole('button', { name: /Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await page.evaluate(() => document.cookie)).not.toContain('refreshToken=');
  await page.goto('/app');
  await expect(page).toHaveURL(/\/auth\/signin$/);
});

test('a session is restored from the refresh cookie alone', async ({ page }) => {
  await signInWithForm(page);
  await forgetPersistedSession(page);
  await page.goto('/app/account/view');
  await expect(page.getByText('admin@demo.local')).toBeVisible();
});

test('a verification without an answer never ends the session', async ({ page }) => {
  test.setTimeout(120_000);
  await signInWithForm(page);
  const cookie = await refreshCookieOf(page);
  expect(cookie).toBeTruthy();
  // Each case restores the session from the refresh cookie alone, so the startup verification runs.

  // 1. The verification is slow and the page is left while it is in flight (the browser aborts it).
  await page.route('**/api/accounts/verify', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue().catch(() => {});
  });
  await forgetPersistedSession(page);
  const verifyAsked = page.waitForRequest('**/api/accounts/verify');
  void page.goto('/app/account/view').catch(() => {});
  await verifyAsked;
  await page.goto('/app');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.unroute('**/api/accounts/verify');
  expect(await refreshCookieOf(page)).toBeTruthy();

  // 2. It fails at the network level, then with a server fault: still signed in, cookie kept.
  for (const fail of [
    (route: Route) => route.abort('failed'),
    (route: Route) =>
      route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>Unavailable</h1>' }),
  ]) {
    await page.route('**/api/accounts/verify', fail);
    await forgetPersistedSession(page);
    // The app logs the failed verification, then decides; the decision is checked after the log.
    const verifyFailed = page.waitForEvent('console', (m) =>
      m.text().includes('Auth initialization error'),
    );
    await page.goto('/app/account/view');
    await verifyFailed;
    await page.unroute('**/api/accounts/verify');
    await expect(page.getByText('admin@demo.local')).toBeVisible();
    await expect(page).toHaveURL(/\/app\/account\/view$/);
    expect(await refreshCookieOf(page)).toBeTruthy();
    expect(await persistedAccessToken(page)).toBeTruthy();
  }

  // 3. A later call still refreshes the token with the surviving cookie.
  const token = (await persistedAccessToken(page))!;
  const before = await refreshCookieOf(page);
  await passExpiryOf(page, token);
  const rotated = page.waitForResponse('**/api/accounts/rotate-token');
  await page.goto('/app/account/view');
  expect((await rotated).status()).toBe(200);
  await expect(page.getByText('admin@demo.local')).toBeVisible();
  expect(await persistedAccessToken(page)).toBeTruthy();
  expect(await refreshCookieOf(page)).not.toBe(before);
});

test('a rotation whose answer never reached the browser does not end the session', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInWithForm(page);
  const context = page.context();
  // The portal rotates the token but its answer is lost (as when a reload cuts the request off after
  // the server answered): the browser keeps the spent token and presents it again on the next load.
  // The spent token is the one this very rotation presents (on a slow machine the app may already
  // have rotated once since signing in).
  let spent: Awaited<ReturnType<typeof context.cookies>>[number] | undefined;
  let rotatedOnServer = 0;
  await page.route('**/api/accounts/rotate-token', async (route) => {
    spent ??= (await context.cookies()).find((c) => c.name === 'refreshToken');
    const answer = await route.fetch();
    expect(answer.status()).toBe(200);
    rotatedOnServer++;
    await route.abort('connectionreset');
  });
  const token = (await persistedAccessToken(page))!;
  await passExpiryOf(page, token);
  const lost = page.waitForRequest('**/api/accounts/rotate-token');
  await page.goto('/app/account/view').catch(() => {});
  await lost;
  await expect.poll(() => rotatedOnServer).toBe(1);
  expect(spent).toBeTruthy();
  await page.unroute('**/api/accounts/rotate-token');
  // Playwright's fetch may have stored the new cookie in the context: put the spent one back.
  await context.addCookies([spent!]);

  const retried = page.waitForResponse('**/api/accounts/rotate-token');
  await page.reload();
  expect((await retried).status()).toBe(200);
  await expect(page.getByText('admin@demo.local')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/account\/view$/);
  expect(await refreshCookieOf(page)).not.toBe(spent!.value);
});

test('a deep link survives signing in; foreign return paths are ignored', async ({ page }) => {
  await page.goto('/app/account/change-password');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await page.getByLabel('User name or email').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(E2E.adminPassword);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/account\/change-password$/);
  await expect(page.getByLabel('Current password')).toBeVisible();

  // A return path outside the app (another origin, a public page) falls back to the dashboard.
  await forgetSignIn(page);
  for (const from of ['//evil.example/app', '/application', '/auth/forgot-password']) {
    await page.goto('/auth/signin');
    await page.evaluate((path) => {
      history.replaceState({ usr: { from: path }, key: 'x', idx: 0 }, '');
    }, from);
    await page.reload();
    await page.getByLabel('User name or email').fill(ADMIN.userName);
    await page.getByLabel('Password').fill(E2E.adminPassword);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/app$/);
    await forgetSignIn(page);
  }
});

test('sign-out removes the persisted session from local storage', async ({ page }) => {
  await signInWithForm(page);
  expect(await page.evaluate(() => localStorage.getItem('persist:root'))).not.toBeNull();
  await page.getByRole('button', { name: /Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  // Give redux-persist's write timer every chance to put the key back.
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => localStorage.getItem('persist:root'))).toBeNull();
});
