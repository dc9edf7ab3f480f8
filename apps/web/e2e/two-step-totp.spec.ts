import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { PortalClient, unique } from './company-support';
import {
  adminRefreshToken,
  enterPassword,
  requireNobody,
  stepNow,
  totpCode,
} from './two-step-support';
import { checkScreens, forgetSignIn, signInAt } from './support';

const PASSWORD = 'two-step-e2e-passphrase';
// Each screen is checked with axe four times (light, dark, 1280, 360 px): slow on a busy machine.
test.setTimeout(240_000);

test('a user turns on an authenticator app, signs in with a code and with a recovery code', async ({
  page,
  request,
}) => {
  const api = new PortalClient(request);
  const userName = unique('totp');
  await api.ok('POST', '/users', {
    userName,
    email: `${userName}@example.test`,
    userFirstName: 'Two',
    userLastName: 'Step',
    password: PASSWORD,
  });

  await page.goto('/auth/signin');
  await enterPassword(page, userName, PASSWORD);
  await expect(page).toHaveURL(/\/app$/);
  await page.goto('/app/account/view');
  await page.getByLabel('Current password').first().fill(PASSWORD);
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await page.locator('[aria-labelledby="totp-secret-label"]').innerText()).replace(
    /\s/g,
    '',
  );
  const step = stepNow();
  await page.getByLabel('Code from the app').fill(totpCode(secret, step));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = await codes.allInnerTexts();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download as text' }).click(),
  ]);
  const saved = fs.readFileSync((await download.path())!, 'utf8');
  for (const code of recovery) expect(saved).toContain(code);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('10 recovery codes left.')).toBeVisible();

  // Signed out, the password now leads to the second step.
  await forgetSignIn(page);
  await page.goto('/auth/signin');
  await enterPassword(page, userName, PASSWORD);
  // The card is the page: its title is the page's one h1 (issue #43).
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Second step');
  await checkScreens(page, 'two-step-second-step', () =>
    expect(page.getByLabel('Authentication code')).toBeVisible(),
  );
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right.');
  // The confirm used its step's code: the next one (one step ahead is accepted) signs in.
  await page
    .getByLabel('Authentication code')
    .fill(totpCode(secret, Math.max(step, stepNow()) + 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // A recovery code, once.
  await forgetSignIn(page);
  await page.goto('/auth/signin');
  await enterPassword(page, userName, PASSWORD);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await checkScreens(page, 'two-step-recovery-code', () =>
    expect(page.getByLabel('Recovery code')).toBeVisible(),
  );
  await page.getByLabel('Recovery code').fill(recovery[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

test('new recovery codes from the account page replace the old ones', async ({ page, request }) => {
  const userName = unique('renew');
  await new PortalClient(request).ok('POST', '/users', {
    userName,
    email: `${userName}@example.test`,
    userFirstName: 'Two',
    userLastName: 'Step',
    password: PASSWORD,
  });
  // the app turned on through the API: the browser signs in with a recovery code, so the renewal
  // below can use the next step's code (the confirm used this one)
  const user = new PortalClient(request, userName, PASSWORD);
  const { secret } = await user.ok<{ secret: string }>('POST', '/accounts/mfa/totp/setup', {
    currentPassword: PASSWORD,
  });
  const { recoveryCodes: old } = await user.ok<{ recoveryCodes: string[] }>(
    'POST',
    '/accounts/mfa/totp/confirm',
    { code: totpCode(secret) },
  );
  await page.goto('/auth/signin');
  await enterPassword(page, userName, PASSWORD);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(old[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  await page.goto('/app/account/view');
  const form = page.getByRole('form', {
    name: 'Recovery codes and turning off the authenticator app',
  });
  await expect(form.getByText('9 recovery codes left.')).toBeVisible();
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByLabel('Code from the app').fill(totpCode(secret, stepNow() + 1));
  await form.getByRole('button', { name: 'Get new recovery codes' }).click();
  await expect(
    page.getByText('New recovery codes made; the old ones no longer work.'),
  ).toBeVisible();
  const shown = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(shown).toHaveCount(10);
  const fresh = await shown.allInnerTexts();
  expect(fresh.filter((code) => old.includes(code))).toEqual([]);
  await checkScreens(page, 'two-step-new-recovery-codes', () =>
    expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible(),
  );
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('10 recovery codes left.')).toBeVisible();

  // an old code is refused, a new one signs in
  await forgetSignIn(page);
  await page.goto('/auth/signin');
  await enterPassword(page, userName, PASSWORD);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(old[1]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right.');
  await page.getByLabel('Recovery code').fill(fresh[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

test('a company policy takes a user to enrolment after the password; the administrator sets it', async ({
  page,
  request,
}) => {
  const api = new PortalClient(request);
  const tag = unique('enrol');
  const code = `twostep.${tag}`;
  const permission = await api.ok<{ _id: string }>('POST', '/permissions', {
    code,
    name: `Two-step ${tag}`,
  });
  await api.ok('POST', '/users', {
    userName: tag,
    email: `${tag}@example.test`,
    userFirstName: 'Two',
    userLastName: 'Step',
    password: PASSWORD,
    permissionIds: [permission._id],
  });
  // The Administrator role holds the new permission too: the policy will catch the admin as well.
  const adminRefresh = await adminRefreshToken(request);
  try {
    await signInAt(page, '/app/security');
    await expect(page.getByRole('heading', { name: 'Two-step sign-in' }).first()).toBeVisible();
    await page.getByLabel('Holders of chosen permissions').check();
    await page.getByLabel(code).check();
    await checkScreens(page, 'two-step-policy', () => expect(page.getByLabel(code)).toBeChecked());
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save policy' }).click();
    await expect(page.getByText('Two-step policy saved.')).toBeVisible();

    await forgetSignIn(page);
    await page.goto('/auth/signin');
    await enterPassword(page, tag, PASSWORD);
    await expect(page).toHaveURL(/\/auth\/enrol$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up a second step');
    await checkScreens(page, 'two-step-enrolment', () =>
      expect(page.getByRole('button', { name: 'Use an authenticator app' })).toBeVisible(),
    );
    // Nothing else opens before enrolment: the protected area sends back to sign-in.
    await page.goto('/app');
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await enterPassword(page, tag, PASSWORD);
    await page.getByRole('button', { name: 'Use an authenticator app' }).click();
    await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
    await checkScreens(page, 'two-step-enrolment-app', () =>
      expect(page.getByLabel('Code from the app')).toBeVisible(),
    );
    const secret = (
      await page.locator('[aria-labelledby="totp-secret-label"]').innerText()
    ).replace(/\s/g, '');
    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(
      page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem'),
    ).toHaveCount(10);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  } finally {
    await requireNobody(request, adminRefresh);
  }
});
