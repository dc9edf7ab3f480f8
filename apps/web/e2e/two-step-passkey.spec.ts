import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import { PortalClient, unique } from './company-support';
import { expectAccessible, forgetSignIn, persistedAccessToken, screenshot } from './support';
import { enterPassword } from './two-step-support';

const PASSWORD = 'two-step-e2e-passphrase';
// Browsers refuse an IP address as relying-party id: the portal (PUBLIC_URL on 127.0.0.1) names
// `localhost`, so this spec uses the same server by that name.
const LOCAL = E2E.portalUrl.replace('127.0.0.1', 'localhost');

test('a user registers a passkey on the account page and signs in with it alone', async ({
  page,
  request,
}) => {
  const api = new PortalClient(request);
  const userName = unique('passkey');
  await api.ok('POST', '/users', {
    userName,
    email: `${userName}@example.test`,
    userFirstName: 'Two',
    userLastName: 'Step',
    password: PASSWORD,
  });

  // Chromium's virtual authenticator: a platform passkey store that verifies its user.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await page.goto(`${LOCAL}/auth/signin`);
  await enterPassword(page, userName, PASSWORD);
  await expect(page).toHaveURL(/\/app$/);
  await page.goto(`${LOCAL}/app/account/view`);
  await page.getByLabel('Passkey name').fill('Virtual laptop');
  await page.getByLabel('Current password').last().fill(PASSWORD);
  await page.getByRole('button', { name: 'Add passkey' }).click();
  const list = page.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByText('Virtual laptop')).toBeVisible();
  // Renamed in place; Escape leaves the name as it was and the keyboard on Rename.
  await list.getByRole('button', { name: 'Rename passkey Virtual laptop' }).click();
  await expect(page.getByLabel('New name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(list.getByRole('button', { name: 'Rename passkey Virtual laptop' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.getByLabel('New name').fill(' ');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Name this passkey')).toBeVisible();
  await expectAccessible(page);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // a full-page shot of a scrolled page paints the sticky header mid-page
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `account-passkey-rename-${width}`);
  }
  await page.getByLabel('New name').fill('Work laptop');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Passkey renamed.')).toBeVisible();
  await expect(list.getByText('Work laptop')).toBeVisible();
  await expect(list.getByText('Virtual laptop')).toHaveCount(0);
  await expect(list.getByRole('button', { name: 'Rename passkey Work laptop' })).toBeFocused();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);

  // Signed out: "Sign in with a passkey" needs no user name.
  await forgetSignIn(page);
  await page.goto(`${LOCAL}/auth/signin`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const token = await persistedAccessToken(page);
  const claims = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()) as {
    amr: string[];
    name: string;
  };
  expect(claims).toMatchObject({ amr: ['hwk'], name: userName });

  // Now a second step after the password too: the passkey answers it.
  await forgetSignIn(page);
  await page.goto(`${LOCAL}/auth/signin`);
  await enterPassword(page, userName, PASSWORD);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const second = JSON.parse(
    Buffer.from((await persistedAccessToken(page))!.split('.')[1]!, 'base64url').toString(),
  ) as { amr: string[] };
  expect(second.amr).toEqual(['pwd', 'hwk']);

  // Removed from the account page, it signs in no more.
  await page.goto(`${LOCAL}/app/account/view`);
  await page.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
});
