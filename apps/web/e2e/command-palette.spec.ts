import { expect, test, type Page } from '@playwright/test';
import { PortalClient, storeTheme, unique } from './company-support';
import { expectAccessible, screenshot, signIn } from './support';

const PASSWORD = 'palette passphrase 2026';

async function openPalette(page: Page) {
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Go to' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('combobox')).toBeFocused();
  return dialog;
}

test('the palette opens with Ctrl+K and goes to pages and records by keyboard alone', async ({
  page,
  request,
}) => {
  const api = new PortalClient(request);
  const userName = unique('palette');
  const user = await api.ok<{ _id: string }>('POST', '/users', {
    userName,
    email: `${userName}@example.test`,
    userFirstName: 'Paletta',
    userLastName: 'Keyboard',
    password: PASSWORD,
  });
  await signIn(page);

  let dialog = await openPalette(page);
  await page.keyboard.type('roles');
  await expect(dialog.getByRole('option', { name: /^Roles/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/app\/company\/roles$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  dialog = await openPalette(page);
  await page.keyboard.type(userName);
  const option = dialog.getByRole('option', { name: /Paletta Keyboard/ });
  await expect(option).toBeVisible({ timeout: 15_000 });
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/company/users/${user._id}/read$`));

  // Arrows move the active option and wrap; Escape closes and gives focus back to the button.
  dialog = await openPalette(page);
  const combobox = dialog.getByRole('combobox');
  const first = await combobox.getAttribute('aria-activedescendant');
  await page.keyboard.press('ArrowUp');
  await expect(combobox).not.toHaveAttribute('aria-activedescendant', first!);
  await page.keyboard.press('ArrowDown');
  await expect(combobox).toHaveAttribute('aria-activedescendant', first!);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Search' })).toBeFocused();
});

test('the palette is accessible open, at 1280 and 360 px, light and dark', async ({ page }) => {
  await signIn(page);
  for (const theme of ['light', 'dark'] as const) {
    await storeTheme(page, theme);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
      const dialog = await openPalette(page);
      await page.keyboard.type('us');
      await expect(dialog.getByRole('option', { name: /^Users/ }).first()).toBeVisible();
      await expect(dialog.getByRole('status')).toContainText('result', { timeout: 15_000 });
      await screenshot(page, `palette-${width}-${theme}`);
      await expectAccessible(page);
      await page.keyboard.press('Escape');
    }
  }
  await storeTheme(page, 'light');
});

test('the palette offers only pages the user may open', async ({ page, request }) => {
  const api = new PortalClient(request);
  const permissions = await api.all<{ _id: string; code: string }>('/permissions');
  const usersRead = permissions.find((p) => p.code === 'users.read')!;
  const role = await api.ok<{ _id: string }>('POST', '/roles', {
    name: unique('Palette readers'),
    permissionIds: [usersRead._id],
  });
  const userName = unique('palette-reader');
  await api.ok('POST', '/users', {
    userName,
    email: `${userName}@example.test`,
    userFirstName: 'Reader',
    userLastName: 'Only',
    password: PASSWORD,
    roleIds: [role._id],
  });
  await signIn(page, userName, PASSWORD);
  const dialog = await openPalette(page);
  await page.keyboard.type('audit');
  await expect(dialog.getByRole('status')).toHaveText('Nothing matches. Try another word.');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('roles');
  await expect(dialog.getByRole('status')).toHaveText('Nothing matches. Try another word.');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('users');
  await expect(dialog.getByRole('option', { name: /^Users/ })).toBeVisible();
  await expect(dialog.getByRole('option', { name: /^New user/ })).toHaveCount(0);
});
