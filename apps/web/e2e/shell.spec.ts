import { expect, test } from '@playwright/test';
import { expectAccessible, screenshot, signIn } from './support';

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
    await menu.getByRole('link', { name: 'Sign In' }).click();
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
