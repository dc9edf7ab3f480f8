import { expect, test } from '@playwright/test';
import { PortalClient, unique } from './company-support';
import { checkScreens, expectAccessible, mailedLinkFor, signIn, signInAt } from './support';

/** The path of a mailed link (the outbox names PUBLIC_URL; the page is served here). */
const pathOf = (link: string) => link.replace(/^https?:\/\/[^/]+/, '');

test('an email change asks for the current password, waits for the new address to confirm it, and the old address can undo it (ADR 007, 026)', async ({
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
  // Nothing changes until the new address confirms: the account page says it is pending.
  const pending = page.getByRole('region', { name: 'Email change pending' });
  await expect(pending).toContainText(`Your email changes to ${newEmail}`);
  await expect(pending).toContainText(`Until then it stays ${oldEmail}`);
  await expect(page.getByRole('definition').filter({ hasText: oldEmail })).toBeVisible();
  await checkScreens(page, 'account-email-change-pending', () => expect(pending).toBeVisible());
  // Sending the link again replaces the first one.
  const first = await mailedLinkFor(newEmail, since, 'confirm-email-change');
  await pending.getByRole('button', { name: 'Send the link again' }).click();
  await expect(page.getByText(`A new link is on its way to ${newEmail}.`)).toBeVisible();
  let confirm = first;
  await expect
    .poll(async () => (confirm = await mailedLinkFor(newEmail, since, 'confirm-email-change')))
    .not.toBe(first);

  // The new address's link asks, then changes the email.
  await page.goto(pathOf(first));
  await page.getByRole('button', { name: 'Confirm this address' }).click();
  await expect(page.getByText('This link is invalid, used, cancelled or expired.')).toBeVisible();
  await page.goto(pathOf(confirm));
  await expect(
    page.getByRole('heading', { level: 1, name: 'Confirm your new email address' }),
  ).toBeVisible();
  await checkScreens(page, 'confirm-email-change', () =>
    expect(page.getByRole('button', { name: 'Confirm this address' })).toBeVisible(),
  );
  await page.getByRole('button', { name: 'Confirm this address' }).click();
  await expect(page.getByRole('status')).toContainText(`Your email is now ${newEmail}`);
  await checkScreens(page, 'confirm-email-change-done', () =>
    expect(page.getByRole('status')).toBeVisible(),
  );
  await page.getByRole('link', { name: 'Go to your account' }).click();
  await expect(page.getByRole('definition').filter({ hasText: newEmail })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Email change pending' })).toHaveCount(0);

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

test('a pending email change can be cancelled from the account page; its link then changes nothing', async ({
  page,
  request,
}) => {
  const name = unique('typo');
  const oldEmail = `${name}@example.test`;
  const typo = `${name}@exmaple.test`;
  const password = 'typo-passphrase-1234';
  await new PortalClient(request).ok('POST', '/users', {
    userName: name,
    email: oldEmail,
    userFirstName: 'Ty',
    userLastName: 'Po',
    password,
    roleIds: [],
  });
  const since = Date.now();
  await signInAt(page, '/app/account/edit', name, password);
  await expect(page.getByLabel('Email')).toHaveValue(oldEmail);
  await page.getByLabel('Email').fill(typo);
  await page.getByLabel('Current password').fill(password);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`Check ${typo}`)).toBeVisible();
  const pending = page.getByRole('region', { name: 'Email change pending' });
  await pending.getByRole('button', { name: 'Cancel the change' }).click();
  await expect(page.getByText('Email change cancelled; your email stays as it is.')).toBeVisible();
  await expect(pending).toHaveCount(0);
  const link = await mailedLinkFor(typo, since, 'confirm-email-change');
  await page.goto(pathOf(link));
  await page.getByRole('button', { name: 'Confirm this address' }).click();
  await expect(page.getByText('This link is invalid, used, cancelled or expired.')).toBeVisible();
  await expectAccessible(page);
  await page.goto('/app/account/view');
  await expect(page.getByRole('definition').filter({ hasText: oldEmail })).toBeVisible();
});
