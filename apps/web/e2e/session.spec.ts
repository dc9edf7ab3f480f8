import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import {
  ADMIN,
  expectAccessible,
  expOf,
  persistedAccessToken,
  screenshot,
  signIn,
} from './support';

test('guests are sent from the protected area to sign-in', async ({ page }) => {
  await page.goto('/app');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await screenshot(page, 'signin-light');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Enter your user name or email')).toBeVisible();
  await page.getByLabel('User name or email').fill(ADMIN.userName);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toContainText(/invalid credentials/i);
  await expect(page).toHaveURL(/\/auth\/signin$/);
});

test('sign in, reload, survive token expiry, guest pages redirect, sign out', async ({ page }) => {
  await signIn(page, ADMIN.email);
  await expect(page.getByRole('button', { name: /Account menu for/ })).toBeVisible();
  await screenshot(page, 'dashboard-light');
  await expectAccessible(page);

  // Reload keeps the session (only the account session is persisted).
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // A signed-in user is redirected away from the guest-only pages.
  await page.goto('/auth/signin');
  await expect(page).toHaveURL(/\/app$/);

  // Let the access token really expire (the e2e portal issues 20 s tokens), then use the API.
  const first = await persistedAccessToken(page);
  expect(first).toBeTruthy();
  const waitMs = expOf(first!) * 1000 - Date.now() + 1500;
  expect(waitMs).toBeLessThanOrEqual((E2E.accessTokenTtl + 2) * 1000);
  await page.waitForTimeout(Math.max(0, waitMs));
  await page.goto('/app/account/view');
  await expect(page.getByText('admin@demo.local')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/account\/view$/);
  const second = await persistedAccessToken(page);
  expect(second).toBeTruthy();
  expect(second).not.toBe(first);
  await expectAccessible(page);

  // Sign out ends on /auth/signin and the protected area is closed again.
  await page.getByRole('button', { name: /Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await page.evaluate(() => document.cookie)).not.toContain('refreshToken=');
  await page.goto('/app');
  await expect(page).toHaveURL(/\/auth\/signin$/);
});

test('a session is restored from the refresh cookie alone', async ({ page }) => {
  await signIn(page);
  await page.evaluate(() => localStorage.removeItem('persist:root'));
  await page.goto('/app/account/view');
  await expect(page.getByText('admin@demo.local')).toBeVisible();
});
