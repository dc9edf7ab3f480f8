import { expect, test } from '@playwright/test';
import { PortalClient, unique } from './company-support';
import { expectAccessible, mailedLinkFor, signIn, signInAt } from './support';

/** The path of a mailed link (the outbox names PUBLIC_URL; the page is served here). */
const pathOf = (link: string) => link.replace(/^https?:\/\/[^/]+/, '');

test('an email change asks for the current password; the old address can undo it (ADR 007)', async ({
  page,
  request,
}) => {
  // Several full page loads and four argon2 hashes: slow on a loaded 2-core machine.
  test.setTimeout(120_000);
  const name = unique('mover');
  const oldEmail = `${name}@example.test`;
  const newEmail = `${name}-new@example.test`;
  const password = 'mover-passphrase-1234';
  const newPassword = 'mover-chosen-again-5678';
  await new PortalClient(request).ok('POST', '/users', {
    userName: name,
    email: oldEmail,
    userFirstName: 'Mo',
    userLastName: 'Ver',
    password,
    roleIds: [],
  });

  await signInAt(page, '/app/account/edit', name, password);
  const email = page.getByLabel('Email');
  await expect(email).toHaveValue(oldEmail);
  // Names alone need no password: the field shows only while the email differs.
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await email.fill(newEmail);
  const current = page.getByLabel('Current password');
  await expect(current).toBeVisible();
  await current.fill('not-the-password');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('The current password is not correct.')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/account\/edit$/);

  const since = Date.now();
  await current.fill(password);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(/\/app\/account\/view$/);
  await expect(page.getByText(newEmail).first()).toBeVisible();

  // The old address got the notice; its link undoes the change (asked for, not done on opening).
  const undo = await mailedLinkFor(oldEmail, since, 'undo-email-change');
  await page.goto(pathOf(undo));
  await expect(page.getByRole('heading', { name: 'Undo the email change' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Undo the change' }).click();
  await expect(page.getByRole('status')).toContainText(`Your email is ${oldEmail} again`);
  await expect(page).toHaveURL(/\/auth\/undo-email-change$/);

  // The password the changer knew is gone; the reset link mailed to the old address sets a new one.
  const reset = await mailedLinkFor(oldEmail, since, 'reset-password');
  await page.goto(pathOf(reset));
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been changed');
  await signIn(page, oldEmail, newPassword);
});
