import { expect, test } from '@playwright/test';
import { axeViolations, expectAccessible, screenshot, signIn, signInWithForm } from './support';

test('theme persists across reloads and the dashboard looks right in dark', async ({ page }) => {
  await page.goto('/');
  await screenshot(page, 'landing-light');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('dark');
  await screenshot(page, 'landing-dark');
  await expectAccessible(page);

  await page.goto('/auth/signin');
  await screenshot(page, 'signin-dark');
  await signIn(page);
  await screenshot(page, 'dashboard-dark');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await expect(page.locator('html')).toHaveClass(/\blight\b/);
});

test('sidebar toggles with Ctrl+B, survives reload, highlights the current item', async ({
  page,
}) => {
  await signIn(page);
  const sidebar = page.locator('[data-slot="sidebar"]');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  await expect(page.getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await page.reload();
  await expect(page.locator('[data-slot="sidebar"]')).toHaveAttribute('data-state', 'collapsed');
  await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
  await expect(page.locator('[data-slot="sidebar"]')).toHaveAttribute('data-state', 'expanded');
  expect((await page.context().cookies()).find((c) => c.name === 'sidebar_state')?.value).toBe(
    'true',
  );

  // Unknown routes inside and outside the shell show the 404 page.
  await page.goto('/app/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Dashboard');
  await expectAccessible(page);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expectAccessible(page);
});

test.describe('mobile', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the public menu and the sidebar are slide-out sheets', async ({ page }) => {
    await page.goto('/');
    await screenshot(page, 'landing-mobile');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog');
    await expect(menu.getByRole('link', { name: 'Contact' })).toBeVisible();
    const box = (await menu.boundingBox())!;
    expect(box.width).toBeGreaterThan(390 * 0.55);
    expect(box.width).toBeLessThanOrEqual(390 * 0.6 + 1);
    await menu.getByRole('link', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await screenshot(page, 'signin-mobile');

    await signIn(page);
    await screenshot(page, 'dashboard-mobile');
    await expectAccessible(page);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
    const sheet = page.getByRole('dialog');
    await expect(sheet).toBeVisible();
    await expect(sheet).toHaveAttribute('data-mobile', 'true');
    await sheet.getByRole('link', { name: 'Users' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(/\/app\/company\/users$/);
  });
});

test('breadcrumb links only real pages and never shows a raw id', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await page.goto('/app/account/view');
  await expect(crumbs.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/app');
  await expect(crumbs.getByText('Account', { exact: true })).toBeVisible();
  await expect(crumbs.getByRole('link', { name: 'Account' })).toHaveCount(0);

  const id = '0193b2c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
  await page.goto(`/app/company/roles/${id}/read`);
  await expect(crumbs.getByRole('link', { name: 'Roles' })).toHaveAttribute(
    'href',
    '/app/company/roles',
  );
  await expect(crumbs.getByRole('link', { name: 'Company' })).toHaveCount(0);
  await expect(crumbs).not.toContainText(id);
  await expect(crumbs.locator('[aria-current="page"]')).toHaveCount(1);
});

test('titles, the signed-in landing page, the in-app 404 and Ctrl+B in fields', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await expect(page).toHaveTitle('Power Analyzer');
  await page.goto('/auth/signin');
  await expect(page).toHaveTitle('Sign In · Power Analyzer');
  await signInWithForm(page);
  await expect(page).toHaveTitle('Dashboard · Power Analyzer');
  await page.goto('/app/account/view');
  await expect(page).toHaveTitle('Your account · Power Analyzer');

  await page.goto('/');
  await expect(page.getByRole('main').getByRole('link', { name: 'Open the app' })).toBeVisible();
  await expect(
    page.getByRole('main').getByRole('link', { name: 'Sign In', exact: true }),
  ).toHaveCount(0);

  await page.goto('/app/no/such/page');
  await expect(page).toHaveTitle('Page not found · Power Analyzer');
  await page.getByRole('link', { name: 'Go home' }).click();
  await expect(page).toHaveURL(/\/app$/);

  // Ctrl+B while typing stays with the field; outside a field it toggles the sidebar.
  await page.goto('/app/account/edit');
  const sidebar = page.locator('[data-slot="sidebar"]');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  await page.getByLabel('First name').focus();
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  await page.getByRole('heading').first().click();
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
});

test('toasts sit below the top bar; no axe violations with a toast or the menu open', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  expect(await axeViolations(page)).toEqual([]);

  // A server fault raises an error toast.
  await page.route('**/api/accounts/sessions', (route) =>
    route.fulfill({ status: 503, contentType: 'text/html', body: 'down' }),
  );
  await page.getByRole('button', { name: /Account menu for/ }).click();
  // Menu open: no aria-hidden-focus. (The menu itself is portaled by Radix outside any landmark —
  // axe's moderate "region" — which is the library's own structure, so only serious+ is checked.)
  await expectAccessible(page);
  await page.getByRole('menuitem', { name: 'View Account' }).click();
  const toast = page.locator('[data-sonner-toast]').first();
  await expect(toast).toBeVisible();
  const header = (await page.locator('header').first().boundingBox())!;
  // The toast slides in from above: its settled place is what must clear the top bar.
  await expect
    .poll(async () => (await toast.boundingBox())!.y)
    .toBeGreaterThanOrEqual(header.y + header.height);
  expect(Math.round((await toast.boundingBox())!.width)).toBe(356);
  await screenshot(page, 'shell-toast-light');
  expect(await axeViolations(page)).toEqual([]);
});

test('less motion when the system asks for it: the sidebar slides no more, spinners still turn', async ({
  page,
}) => {
  await signIn(page);
  const sidebar = page.locator('[data-slot="sidebar-container"]');
  /** The sidebar's slide when it collapses or opens (Ctrl+B), in seconds. */
  const slide = () =>
    sidebar.evaluate((element) => parseFloat(getComputedStyle(element).transitionDuration));
  const spinnerTurns = () =>
    page.evaluate(() => {
      const spinner = document.body.appendChild(document.createElement('div'));
      spinner.className = 'animate-spin';
      const style = getComputedStyle(spinner);
      const turns = [style.animationIterationCount, parseFloat(style.animationDuration)] as const;
      spinner.remove();
      return turns;
    });

  expect(await slide()).toBeCloseTo(0.2);
  expect(await spinnerTurns()).toEqual(['infinite', 1]);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await slide()).toBeLessThan(0.001);
  expect(await spinnerTurns()).toEqual(['infinite', 1]);
  // and it still collapses
  await page.keyboard.press('Control+b');
  await expect(page.locator('[data-slot="sidebar"]')).toHaveAttribute('data-state', 'collapsed');
  await page.keyboard.press('Control+b');
  await expect(page.locator('[data-slot="sidebar"]')).toHaveAttribute('data-state', 'expanded');
});
