import { expect, test } from '@playwright/test';
import { apiSignIn, expectAccessible, screenshot, signInAt } from './support';

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
];

test('sign-ins: named devices, newest first, collapsed, sign out one and all others', async ({
  page,
  playwright,
}) => {
  test.setTimeout(120_000);
  // Other browsers sign in first (the portal records each request's user agent).
  for (const agent of AGENTS) {
    const other = await playwright.request.newContext({ userAgent: agent });
    await apiSignIn(other);
    await other.dispose();
  }
  await signInAt(page, '/app/account/view');
  const list = page.getByRole('list', { name: 'Sign-ins' });
  const rows = list.getByRole('listitem');

  // This browser signed in last: first row, marked, without a sign-out button of its own.
  await expect(rows.first()).toContainText('This device');
  await expect(rows.first().getByRole('button')).toHaveCount(0);
  await expect(rows).toHaveCount(5);
  await expect(list).toContainText('Chrome 131 on Windows 10');
  await expect(list).not.toContainText('Mozilla/5.0');
  await page.getByRole('button', { name: /Show all \d+ sign-ins/ }).click();
  expect(await rows.count()).toBeGreaterThanOrEqual(AGENTS.length + 1);
  await expect(list).toContainText('Safari 17 on iOS 17');
  await expect(list).toContainText('Firefox 133 on Linux');
  await screenshot(page, 'account-sign-ins-light');
  await expectAccessible(page);

  const before = await rows.count();
  await rows
    .nth(1)
    .getByRole('button', { name: /Sign out this device/ })
    .click();
  await expect(page.getByText(/^Signed out .+ on .+\.$/)).toBeVisible();
  await expect(rows).toHaveCount(before - 1);

  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(page.getByText(/^Signed out \d+ other sign-ins?\.$/)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('This device');
  await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();

  await page.setViewportSize({ width: 360, height: 800 });
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.reload();
  await expect(rows).toHaveCount(1);
  await screenshot(page, 'account-sign-ins-mobile-dark');
  await expectAccessible(page);
});
