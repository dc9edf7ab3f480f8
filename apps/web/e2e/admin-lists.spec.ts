import { expect as baseExpect, test, type Page } from '@playwright/test';
import { expectAccessible, forgetSignIn, screenshot, signIn, signInAt } from './support';
import { PortalClient, storeTheme, unique } from './company-support';

// Issue 26: each defect a real administrator hit, and the list kit's new features.
const expect = baseExpect.configure({ timeout: 15_000 });
const PASSWORD = 'a-long-enough-password-1';

interface Row {
  _id: string;
  code?: string;
  userName?: string;
  version?: number;
}

async function permissionIds(admin: PortalClient, codes: string[]) {
  const all = await admin.all<Row>('/permissions');
  return codes.map((code) => all.find((p) => p.code === code)!._id);
}

/** A user holding only these permission codes (through a role of their own). */
async function userWith(admin: PortalClient, tag: string, codes: string[]) {
  const role = await admin.ok<Row>('POST', '/roles', {
    name: `Role ${tag}`,
    permissionIds: await permissionIds(admin, codes),
  });
  const user = await admin.ok<Row>('POST', '/users', {
    userName: tag,
    email: `${tag}@example.test`,
    userFirstName: 'Clara',
    userLastName: 'Clerk',
    password: PASSWORD,
    roleIds: [role._id],
  });
  return { role, user };
}

const usersTable = (page: Page) => page.getByRole('table', { name: 'Users' });

test('a users.read holder without roles.read sees role names; nothing waits forever; links only to pages they may open', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const admin = new PortalClient(request);
  const tag = unique('clerk');
  await userWith(admin, tag, ['users.read', 'users.create']);
  await signIn(page, tag, PASSWORD);

  // One h1 on the dashboard; no tiles or links to pages that would answer 403.
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: /Users/ })).toBeVisible();
  await expect(main.getByRole('link', { name: /Roles/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Permissions', exact: true })).toHaveCount(0);

  // /app/company is not blank: it opens the first page this user may see.
  await page.goto('/app/company');
  await expect(page).toHaveURL(/\/app\/company\/users$/);
  await expect(usersTable(page)).toContainText('Administrator');
  await expect(page.getByRole('button', { name: /^Filter by Role/ })).toHaveCount(0);
  // No delete permission: no row checkboxes.
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await expect(usersTable(page)).not.toContainText('…');
  await expectAccessible(page);

  await page.getByRole('link', { name: 'admin', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(main.getByText('Administrator', { exact: true })).toBeVisible();

  await page.goto('/app/company/users/create');
  await expect(page.getByText('Choosing roles needs the roles.read permission')).toBeVisible();
  await expect(
    page.getByText('Choosing direct permissions needs the permissions.read permission'),
  ).toBeVisible();
  await expect(page.getByText('Loading permissions…')).toHaveCount(0);
  await expectAccessible(page);
});

test('lists: page past the end, several values per filter, jump to page, loading state, kept columns, clipped long names, relative times', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  const admin = new PortalClient(request);
  const tag = unique('lst');
  const long = `${tag}-${'verylongname'.repeat(5)}`.slice(0, 64);
  await admin.ok('POST', '/users', {
    userName: long,
    email: `${tag}-long@example.test`,
    userFirstName: 'Maximiliana-Bartholomea-Konstantinopolitanska',
    userLastName: 'Wolfeschlegelsteinhausenbergerdorff-Vandersloot',
    password: PASSWORD,
  });
  for (const status of ['locked', 'inactive']) {
    await admin.ok('POST', '/users', {
      userName: `${tag}-${status}`,
      email: `${tag}-${status}@example.test`,
      userFirstName: 'Sam',
      userLastName: status,
      status,
      password: PASSWORD,
    });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);

  // ?page=999 moves to the last real page instead of "There are no users yet." / "9981–2 of 2".
  const total = (await admin.ok<{ total: number; totalPages: number }>('GET', '/users')).totalPages;
  await page.goto('/app/company/users?page=999');
  await expect(page).toHaveURL(total > 1 ? new RegExp(`page=${total}(&|$)`) : /users$/);
  await expect(page.getByText('There are no users yet.')).toHaveCount(0);
  await expect(page.getByText(/^\d+–\d+ of \d+ users$/)).toBeVisible();

  // Two statuses at once (any of them), the menu axe-clean while open.
  await page.goto('/app/company/users');
  await page.getByRole('button', { name: 'Filter by Status' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Locked' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Inactive' }).click();
  await expect(page).toHaveURL(/filters%5Bstatus%5D=locked%2Cinactive/);
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  const both = await admin.ok<{ total: number }>('GET', '/users?filters[status]=locked,inactive');
  await expect(page.getByText(new RegExp(`of ${both.total} users?$`))).toBeVisible();
  await expect(usersTable(page)).toContainText(`${tag}-locked`);
  await expect(usersTable(page)).toContainText(`${tag}-inactive`);

  // Jump to page.
  await page.goto('/app/company/users?pageSize=10');
  if (total > 1) {
    await page.getByLabel('Go to page').fill('2');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  }

  // A new search shows placeholders and a loading bar, not the old rows, until its answer comes.
  await page.goto('/app/company/users');
  await expect(usersTable(page).getByRole('link', { name: 'admin', exact: true })).toBeVisible();
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/users\?.*search=nobody-at-all/, async (route) => {
    await gate;
    await route.continue();
  });
  await page.getByRole('searchbox', { name: 'Search users' }).fill('nobody-at-all');
  await expect(page.getByTestId('list-loading')).toBeVisible();
  await expect(page.getByTestId('skeleton-row').first()).toBeVisible();
  await expect(usersTable(page).getByRole('link', { name: 'admin', exact: true })).toHaveCount(0);
  release();
  await expect(page.getByText('No users match this search or these filters.')).toBeVisible();
  await expect(page.getByTestId('list-loading')).toHaveCount(0);
  await page.unroute(/\/api\/users\?.*search=nobody-at-all/);

  // Shown columns and page size outlive a reload (and a visit without parameters).
  await page.goto('/app/company/users');
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Phone' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '20' }).click();
  await expect(page).toHaveURL(/pageSize=20/);
  await page.goto('/app/company/users');
  await expect(page).toHaveURL(/pageSize=20/);
  await expect(usersTable(page).getByRole('columnheader', { name: 'Phone' })).toBeVisible();

  // Relative times with the exact one on hover.
  await expect(usersTable(page).locator('time[title]').first()).toHaveText(/ago|now/);

  // A long name is clipped: the row's actions stay on screen at 1280 px.
  await page.getByRole('searchbox', { name: 'Search users' }).fill(tag);
  // the row can be on screen before the search lands (page size 20), then drawn again: measure it
  // once the searched list is shown
  await expect(page).toHaveURL(new RegExp(`search=${tag}`));
  await expect(page.getByTestId('list-loading')).toHaveCount(0);
  await expect(usersTable(page).getByRole('link', { name: `View ${long} (` })).toBeVisible();
  const actions = usersTable(page).getByRole('link', { name: new RegExp(`^Delete ${long}`) });
  await expect(actions).toBeVisible();
  const box = await actions.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(1280);
  await screenshot(page, 'admin-lists-long-names-1280-light');

  // The own row's trash is disabled; the bulk-delete dialog is axe-clean.
  await page.getByRole('searchbox', { name: 'Search users' }).fill('');
  await page.goto('/app/company/users?search=admin');
  await expect(usersTable(page).getByRole('button', { name: /^Delete admin/ })).toBeDisabled();
  await page.goto(`/app/company/users?search=${tag}`);
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await page.getByRole('button', { name: /^Delete selected/ }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
});

test('shell and record pages: skip link, focus back after End all sessions, readable audit with names, Who searching the server, messages, account status and phone', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  const admin = new PortalClient(request);
  const tag = unique('aud');
  const { user } = await userWith(admin, tag, ['users.read']);
  const fresh = await admin.ok<Row>('GET', `/users/${user._id}`);
  await admin.ok('PATCH', `/users/${user._id}`, {
    version: fresh.version,
    userFirstName: 'Renamed',
  });
  await signIn(page);

  // Skip link first in the tab order, to the page's content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  // Closing "End all sessions" returns focus to its button.
  await page.goto(`/app/company/users/${user._id}/read`);
  const end = page.getByRole('button', { name: 'End all sessions' });
  await end.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(end).toBeFocused();

  // The audit trail names the entity and shows no version; Who searches every user.
  await page.goto(`/app/company/audit?filters%5BentityId%5D=${user._id}`);
  const trail = page.getByRole('table', { name: 'Audit trail' });
  await expect(trail).toContainText(`user ${tag}`);
  await trail.getByRole('button', { name: /^Details of user.create/ }).click();
  const changes = page.getByRole('dialog').getByRole('table', { name: 'Changed fields' });
  await expect(changes).toContainText(`Role ${tag}`);
  await expect(changes).not.toContainText('version');
  await expect(changes).not.toContainText('Version');
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await page.goto('/app/company/audit');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(tag);
  await page.getByRole('button', { name: 'Filter by Who' }).click();
  await page.getByRole('menuitemcheckbox', { name: tag }).click();
  await expect(page).toHaveURL(new RegExp(`filters%5BactorId%5D=${user._id}`));
  await expectAccessible(page);
  await page.keyboard.press('Escape');

  // The matrix's save bar stays below the top bar.
  await page.goto('/app/company/roles/matrix');
  await expect(page.getByRole('table', { name: 'Role–permission matrix' })).toBeVisible();
  await page.mouse.wheel(0, 1500);
  const bar = page.getByText('No unsaved changes.');
  const top = await page.locator('header').first().boundingBox();
  const barBox = await bar.boundingBox();
  expect(barBox!.y).toBeGreaterThanOrEqual(top!.y + top!.height);
  await screenshot(page, 'admin-lists-matrix-1280-light');

  // The account page says the status in words; its edit page has the phone.
  await page.goto('/app/account/view');
  await expect(page.getByText('Active — can sign in.')).toBeVisible();
  await page.goto('/app/account/edit');
  await expect(page.getByLabel('Phone')).toBeVisible();

  // Sign-in: the last answer's message goes away on a new attempt.
  await forgetSignIn(page);
  await page.goto('/auth/signin');
  await page.getByLabel('User name or email').fill(tag);
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Invalid credentials.')).toBeVisible();
  await page.getByLabel('Password').fill('');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Invalid credentials.')).toHaveCount(0);
});

test('the row actions never cover the Roles column of the users list (1280 and 360 px, every column shown)', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = new PortalClient(request);
  const tag = unique('lay');
  const roleIds: string[] = [];
  for (const name of ['Regional operations supervisor', 'Power quality analyst (read only)'])
    roleIds.push((await admin.ok<Row>('POST', '/roles', { name: `${name} ${tag}` }))._id);
  await admin.ok('POST', '/users', {
    userName: `${tag}-${'longname'.repeat(6)}`.slice(0, 60),
    email: `${tag}-${'longaddress'.repeat(4)}@example.test`,
    userFirstName: 'Maximiliana-Bartholomea',
    userLastName: 'Wolfeschlegelsteinhausenbergerdorff',
    phone: '+41 44 123 45 67',
    password: PASSWORD,
    roleIds,
  });
  await signIn(page);
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/app/company/users?search=${tag}`);
    await expect(usersTable(page).locator('tbody tr')).toHaveCount(1);
    // Every column on (Phone and Created are hidden at first).
    await page.getByRole('button', { name: 'Columns' }).click();
    for (const column of ['Phone', 'Created']) {
      const item = page.getByRole('menuitemcheckbox', { name: column });
      if ((await item.getAttribute('aria-checked')) !== 'true') await item.click();
    }
    await page.keyboard.press('Escape');
    const roles = usersTable(page).locator('tbody tr td').filter({
      hasText: 'Regional operations supervisor',
    });
    await expect(roles).toHaveCount(1);
    const actions = usersTable(page)
      .getByRole('link', { name: /^Delete / })
      .locator('xpath=ancestor::td');
    const [rolesBox, actionsBox] = [await roles.boundingBox(), await actions.boundingBox()];
    // Side by side, never one over the other; and the actions are on screen.
    const apart =
      rolesBox!.x >= actionsBox!.x + actionsBox!.width - 0.5 ||
      actionsBox!.x >= rolesBox!.x + rolesBox!.width - 0.5;
    expect(
      apart,
      `Roles ${JSON.stringify(rolesBox)} vs actions ${JSON.stringify(actionsBox)}`,
    ).toBe(true);
    expect(actionsBox!.x + actionsBox!.width).toBeLessThanOrEqual(width);
    await screenshot(page, `admin-lists-roles-vs-actions-${width}`);
    // Reset the kept columns for the next run and other tests.
    await page.getByRole('button', { name: 'Reset view' }).click();
  }
});

test('undo after deleting a role or a permission brings it back with its permissions', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = new PortalClient(request);
  const tag = unique('undo');
  const role = await admin.ok<Row & { permissionIds: string[] }>('POST', '/roles', {
    name: `Undo role ${tag}`,
    permissionIds: await permissionIds(admin, ['users.read', 'roles.read']),
  });
  await signInAt(page, `/app/company/roles/${role._id}/delete`);
  await expect(page.getByText('You can undo it for a few seconds afterwards.')).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`Role “Undo role ${tag}” deleted.`)).toBeVisible();
  await screenshot(page, 'roles-undo-toast');
  expect((await admin.call('GET', `/roles/${role._id}`)).status).toBe(404);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText(`Role “Undo role ${tag}” restored.`)).toBeVisible();
  const back = await admin.ok<{ name: string; permissionIds: string[] }>(
    'GET',
    `/roles/${role._id}`,
  );
  expect(back.name).toBe(`Undo role ${tag}`);
  expect([...back.permissionIds].sort()).toEqual([...role.permissionIds].sort());
  // The list shows it again without a reload.
  await page.goto(`/app/company/roles?search=${tag}`);
  await expect(page.getByRole('table', { name: 'Roles' }).locator('tbody tr')).toHaveCount(1);

  const code = `undo.${tag}`.toLowerCase().replace(/[^a-z0-9.]/g, '');
  const permission = await admin.ok<Row>('POST', '/permissions', { code, name: 'Undo me' });
  await page.goto(`/app/company/permissions/${permission._id}/delete`);
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`Permission “${code}” deleted.`)).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText(`Permission “${code}” restored.`)).toBeVisible();
  expect((await admin.call('GET', `/permissions/${permission._id}`)).status).toBe(200);
});

test('the leave-without-saving dialog is accessible at 1280 and 360 px, light and dark', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const admin = new PortalClient(request);
  const role = await admin.ok<Row>('POST', '/roles', { name: `Leave ${unique('lg')}` });
  await signInAt(page, `/app/company/roles/${role._id}/update`);
  for (const theme of ['light', 'dark'] as const) {
    await storeTheme(page, theme);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await page.reload();
      await page.getByLabel('Description').fill(`unsaved ${theme} ${width}`);
      await page.getByRole('link', { name: 'Cancel' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Leave without saving?' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Stay on this page' })).toBeFocused();
      await screenshot(page, `leave-guard-${width}-${theme}`);
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Stay on this page' }).click();
      await expect(page).toHaveURL(/\/update$/);
    }
  }
  await storeTheme(page, 'light');
});
