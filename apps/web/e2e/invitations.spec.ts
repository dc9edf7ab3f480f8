import { expect, test, type Browser } from '@playwright/test';
import { E2E } from '../playwright.config';
import { PortalClient, unique } from './company-support';
import { checkScreens, expectAccessible, mailedLinkFor, signIn, signInAt } from './support';

/** A browser with no session: the invitee's. */
async function guestPage(browser: Browser, link: string) {
  const context = await browser.newContext({ baseURL: E2E.portalUrl });
  const page = await context.newPage();
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  return page;
}

test('invite from the users page, accept from the mailed link, signed in; a used link says so', async ({
  page,
  browser,
  request,
}) => {
  // Many page loads, axe runs in four looks per screen and two argon2 hashes on a loaded machine.
  test.setTimeout(300_000);
  const admin = new PortalClient(request);
  const permissions = await admin.all<{ _id: string; code: string }>('/permissions');
  const readUsers = permissions.find((p) => p.code === 'users.read')!._id;
  const roleName = unique('Invited readers');
  await admin.ok('POST', '/roles', { name: roleName, permissionIds: [readUsers] });
  const localPart = unique('ines.vite');
  const email = `${localPart}@example.test`;

  await signInAt(page, '/app/company/users');
  await page.getByRole('link', { name: 'Invite user' }).click();
  await expect(page.getByRole('heading', { name: 'Invite user' })).toBeVisible();
  await checkScreens(page, 'invitations-invite-form');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First name (optional)').fill('Ines');
  await page.getByLabel('Last name (optional)').fill('Vite');
  await page.getByRole('checkbox', { name: roleName }).check();
  const since = Date.now();
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page).toHaveURL(/\/app\/company\/users$/);
  const pending = page.getByRole('list', { name: 'Pending invitations' });
  const row = pending.getByRole('listitem').filter({ hasText: email });
  await expect(row).toContainText(roleName, { timeout: 30_000 });
  await expect(row).toContainText('Ines Vite · invited by admin · until');
  await checkScreens(page, 'invitations-users-with-pending');

  // The same email again: a clear 409 under the field.
  await page.goto('/app/company/users/invite');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(/already has a pending invitation; resend it instead/)).toBeVisible();

  // The invitee opens the mailed link in their own browser.
  const link = await mailedLinkFor(email, since, 'accept-invitation');
  const invitee = await guestPage(browser, link);
  await expect(invitee.getByRole('heading', { name: 'Accept your invitation' })).toBeVisible();
  await expect(invitee.getByText(`Demo Company invited ${email}`)).toBeVisible();
  await expect(invitee.getByLabel('User name')).toHaveValue(localPart);
  await checkScreens(invitee, 'invitations-accept-form');
  const password = invitee.getByLabel('Password', { exact: true });
  await password.fill('an invitee passphrase 42');
  await invitee.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await invitee.getByRole('button', { name: 'Create account and sign in' }).click();
  await expect(invitee).toHaveURL(/\/app$/);
  await expect(invitee.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await invitee.context().close();

  // The accepted invitation left the pending list; the new user is in the users list (searched for:
  // other specs on this product add users, so it may not be on the first page).
  await page.goto('/app/company/users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(localPart);
  // A list load on a busy machine can take longer than expect's default 5 s.
  await expect(page.getByRole('link', { name: localPart, exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(
    page.getByRole('list', { name: 'Pending invitations' }).getByText(email),
  ).toHaveCount(0);

  // The link works once.
  const again = await guestPage(browser, link);
  await expect(again.getByRole('heading', { name: 'Invitation already accepted' })).toBeVisible();
  await expect(again.getByRole('link', { name: 'Go to sign in' })).toBeVisible();
  await expect(again).toHaveURL(/\/auth\/accept-invitation$/);
  await checkScreens(again, 'invitations-used-link');
  await again.context().close();
});

test('revoke a pending invitation: its link says it was withdrawn', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = new PortalClient(request);
  const email = `${unique('withdrawn')}@example.test`;
  const since = Date.now();
  await admin.ok('POST', '/users/invitations', { email });
  const link = await mailedLinkFor(email, since, 'accept-invitation');

  await signInAt(page, '/app/company/users');
  await page.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`Revoke the invitation to ${email}?`);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Revoke invitation' }).click();
  await expect(page.getByText(`The invitation to ${email} was revoked.`)).toBeVisible();
  await expect(page.getByRole('button', { name: `Revoke the invitation to ${email}` })).toHaveCount(
    0,
  );

  const withdrawn = await guestPage(browser, link);
  await expect(withdrawn.getByRole('heading', { name: 'Invitation withdrawn' })).toBeVisible();
  await expect(withdrawn.getByText(/withdrawn by your administrator/)).toBeVisible();
  await checkScreens(withdrawn, 'invitations-withdrawn-link');
  await withdrawn.context().close();
});

test("send a user a password reset link from the user's page", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = new PortalClient(request);
  const userName = unique('resettable');
  const email = `${userName}@example.test`;
  const user = await admin.ok<{ _id: string }>('POST', '/users', {
    userName,
    email,
    userFirstName: 'Reset',
    userLastName: 'Me',
    password: 'a first passphrase 42',
  });

  await signInAt(page, `/app/company/users/${user._id}/read`);
  await page.getByRole('button', { name: 'Send password reset link' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`A link to choose a new password goes to ${email}`);
  await checkScreens(page, 'invitations-reset-link-dialog');
  const since = Date.now();
  await dialog.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByText(`A password reset link was sent to ${email}.`)).toBeVisible();
  const link = await mailedLinkFor(email, since, 'reset-password');
  // The user opens it in their own browser and chooses a new password.
  const owner = await guestPage(browser, link);
  await owner.getByLabel('New password', { exact: true }).fill('a second passphrase 42');
  await owner.getByLabel('Confirm new password').fill('a second passphrase 42');
  await owner.getByRole('button', { name: 'Set new password' }).click();
  await expect(owner.getByRole('status')).toContainText('Your password has been changed');
  await signIn(owner, userName, 'a second passphrase 42');
  await owner.context().close();
});
