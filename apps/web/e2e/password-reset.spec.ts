import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import { ADMIN, expectAccessible, resetLinkFor, signInAt } from './support';

test('forgot + reset password through the outbox, then change it back', async ({ page }) => {
  // Many full page loads and two argon2 hashes: slow on a loaded 2-core machine.
  test.setTimeout(120_000);
  const newPassword = 'a-brand-new-passphrase-42';

  await page.goto('/auth/forgot-password');
  await expectAccessible(page);
  // Unknown addresses get the very same confirmation.
  await page.getByLabel('Email').fill('nobody@nowhere.test');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  // (the first page hands the address to the app, whose loading spinner is a status too: wait for
  // the answer's own)
  const answer = page.getByRole('status').filter({ hasText: 'If an account exists' });
  await expect(answer).toBeVisible();
  const confirmation = await answer.innerText();

  await page.goto('/auth/forgot-password');
  const since = Date.now();
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toHaveText(confirmation);

  const link = await resetLinkFor(ADMIN.email, since);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Password must be at least 12 characters')).toBeVisible();
  // One message for one problem: the empty confirmation is not reported on top of it.
  await expect(page.getByText('Passwords do not match')).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(1);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been changed');
  // The used token leaves the address bar.
  await expect(page).toHaveURL(/\/auth\/reset-password$/);

  // The link is single use.
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toBeVisible();

  // Sign in with the new password and change it back on the account page.
  await signInAt(page, '/app/account/change-password', ADMIN.userName, newPassword);
  await expectAccessible(page);
  await page.getByLabel('Current password').fill(newPassword);
  await page.getByLabel('New password', { exact: true }).fill(E2E.adminPassword);
  await page.getByLabel('Confirm new password').fill(E2E.adminPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
});
