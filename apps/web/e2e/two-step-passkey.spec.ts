import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { PortalClient, unique } from './company-support';
import {
  checkScreens,
  expectAccessible,
  forgetSignIn,
  persistedAccessToken,
  screenshot,
} from './support';
import { enterPassword } from './two-step-support';

const PASSWORD = 'two-step-e2e-passphrase';
// The suite runs at the address `npm start` prints, `localhost` (ADR 023): browsers refuse an IP
// address as relying-party id.
const LOCAL = E2E.portalUrl;
const port = new URL(E2E.portalUrl).port;

async function passkeyUser(request: APIRequestContext) {
  const userName = unique('passkey');
  await new PortalClient(request).ok('POST', '/users', {
    userName,
    email: `${userName}@example.test`,
    userFirstName: 'Two',
    userLastName: 'Step',
    password: PASSWORD,
  });
  return userName;
}

/** Chromium's virtual authenticator: a platform passkey store that verifies its user. */
async function virtualAuthenticator(page: Page) {
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
  return { cdp, authenticatorId };
}

test('a user registers a passkey on the account page and signs in with it alone', async ({
  page,
  request,
}) => {
  const userName = await passkeyUser(request);
  const { cdp, authenticatorId } = await virtualAuthenticator(page);

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

test('at http://127.0.0.1:<port>, as the README once gave it, the page moves to localhost and passkeys work', async ({
  page,
  request,
}) => {
  const userName = await passkeyUser(request);
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  await page.goto(`http://127.0.0.1:${port}/auth/signin`);
  await expect(page).toHaveURL(`${LOCAL}/auth/signin`);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
  await enterPassword(page, userName, PASSWORD);
  await expect(page).toHaveURL(/\/app$/);

  await page.goto(`http://127.0.0.1:${port}/app/account/view`);
  await expect(page).toHaveURL(`${LOCAL}/app/account/view`);
  await page.getByLabel('Passkey name').fill('Laptop');
  await page.getByLabel('Current password').last().fill(PASSWORD);
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page.getByRole('list', { name: 'Your passkeys' }).getByText('Laptop')).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.rpId).toBe('localhost');

  await forgetSignIn(page);
  await page.goto(`http://127.0.0.1:${port}/auth/signin`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(new URL(page.url()).hostname).toBe('localhost');
});

test('at an IP address, where browsers refuse passkeys, the passkey buttons say why and what to do', async ({
  page,
  request,
}) => {
  const userName = await passkeyUser(request);
  // An installation reached by IP address only: the browser asks 10.1.2.3, the answers come from
  // this product (the portal redirects only loopback addresses, so this is what such a site shows).
  const IP = '10.1.2.3';
  await page.route(
    (url) => url.hostname === IP,
    async (route) => {
      const url = new URL(route.request().url());
      url.hostname = 'localhost';
      const response = await route.fetch({ url: url.toString(), maxRedirects: 0 });
      await route.fulfill({ response });
    },
  );
  await page.goto(`http://${IP}:${port}/auth/signin`);
  const button = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(button).toBeDisabled();
  const why = page.getByText(
    `Passkeys do not work here: this page is open at the IP address ${IP}, and browsers offer passkeys only to sites with a name.`,
    { exact: false },
  );
  await expect(why).toBeVisible();
  await expect(why).toContainText('ask your administrator to give Power Analyzer a site name');
  await expect(button).toHaveAttribute('aria-describedby', 'passkey-sign-in-unavailable');
  await checkScreens(page, 'passkey-at-ip-sign-in');

  // Signed in with the password there, the account page cannot add one either, and says so.
  await enterPassword(page, userName, PASSWORD);
  await expect(page).toHaveURL(/\/app$/);
  await page.goto(`http://${IP}:${port}/app/account/view`);
  await expect(page.getByRole('button', { name: 'Add passkey' })).toBeDisabled();
  await expect(page.locator('#add-passkey-unavailable')).toContainText(`IP address ${IP}`);
  await checkScreens(page, 'passkey-at-ip-account');
});
