import fs from 'node:fs';
import { expect as baseExpect, test } from '@playwright/test';
import { ADMIN, expectAccessible, signIn, signInAt } from './support';
import { PortalClient, screenshotsOf, tableColumn, unique } from './company-support';

// The tests stand alone (each makes what it needs, under unique names): they may run on either
// worker's product, so the suite's two workers finish together (docs/benchmarks/test-suite.md).
test.describe.configure({ mode: 'parallel' });

// Screens load their chunk and ask the API after a reload; the shared 2-core machine is slow.
const expect = baseExpect.configure({ timeout: 15_000 });

const PASSWORD = 'a-long-enough-password-1';

interface Named {
  _id: string;
  version: number;
}

test('create a permission, a role using it and a user with that role; that user sees only what the role allows; edit and delete each', async ({
  page,
  browser,
}) => {
  test.setTimeout(720_000);
  const tag = unique('flow');
  const code = `${tag}.export`;
  const roleName = `Viewer ${tag}`;
  const userName = `user-${tag}`;
  await signIn(page);

  // Permission
  await page.goto('/app/company/permissions');
  await page.getByRole('link', { name: 'Create permission' }).click();
  await expect(page.getByRole('heading', { name: 'Create permission' })).toBeVisible();
  await page.getByLabel('Code').fill('Not A Code');
  await page.getByLabel('Name').fill('Export reports');
  await page.getByRole('button', { name: 'Create permission' }).click();
  await expect(page.getByText('The code is lower-case words joined by dots')).toBeVisible();
  await expectAccessible(page);
  await screenshotsOf(page, 'company-permission-form', async () => {
    await expect(page.getByRole('heading', { name: 'Create permission' })).toBeVisible();
  });
  await page.getByLabel('Code').fill(code);
  await page.getByLabel('Name').fill('Export reports');
  await page.getByLabel('Group').fill('Reports');
  await page.getByLabel('Description').fill('May export the monthly reports.');
  await page.getByRole('button', { name: 'Create permission' }).click();
  await expect(page.getByText(`Permission “${code}” created.`)).toBeVisible();
  await expect(page).toHaveURL(/\/app\/company\/permissions\/[0-9a-f-]+\/read$/);
  await expect(page.getByRole('heading', { name: code, level: 1 })).toBeVisible();
  // The breadcrumb names the record, not its id.
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(code);

  // A taken code is reported under the field by the server.
  await page.goto('/app/company/permissions/create');
  await page.getByLabel('Code').fill(code);
  await page.getByLabel('Name').fill('Again');
  await page.getByRole('button', { name: 'Create permission' }).click();
  await expect(page.locator('#permission-code-error')).toBeVisible();

  // Role with users.read, roles.read and the new permission
  await page.goto('/app/company/roles/create');
  await page.getByLabel('Name').fill(roleName);
  await page.getByLabel('Description').fill('Reads users and roles.');
  await page.getByRole('checkbox', { name: 'Read users users.read' }).check();
  await page.getByRole('checkbox', { name: 'Read roles roles.read' }).check();
  await page.getByRole('checkbox', { name: `Export reports ${code}` }).check();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create role' }).click();
  await expect(page.getByText(`Role “${roleName}” created.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Permissions (3)' })).toBeVisible();

  // User with that role
  await page.goto('/app/company/users/create');
  await page.getByLabel('First name').fill('Vera');
  await page.getByLabel('Last name').fill('Viewer');
  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Email').fill(`${userName}@example.test`);
  await page.getByLabel('Initial password').fill(PASSWORD);
  await page.getByRole('checkbox', { name: roleName }).check();
  await expectAccessible(page);
  await screenshotsOf(page, 'company-user-form', async () => {
    await expect(page.getByRole('heading', { name: 'Create user' })).toBeVisible();
    // the card's title comes before its choice lists: shot once the form itself is there
    await expect(page.getByRole('checkbox', { name: roleName })).toBeVisible();
  });
  // With screenshots the reloads above emptied the form: fill it (again).
  await page.getByLabel('First name').fill('Vera');
  await page.getByLabel('Last name').fill('Viewer');
  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Email').fill(`${userName}@example.test`);
  await page.getByLabel('Initial password').fill(PASSWORD);
  await page.getByRole('checkbox', { name: roleName }).check();
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByText(`User “${userName}” created.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Vera Viewer', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: roleName })).toBeVisible();
  const userUrl = page.url();
  await screenshotsOf(page, 'company-user-view', async () => {
    await expect(page.getByRole('heading', { name: 'Vera Viewer', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Recent changes' })).toBeVisible();
  });
  await expectAccessible(page);

  // The new user, in a second browser: reads users and roles, changes nothing, no permissions page.
  const other = await browser.newContext();
  const viewer = await other.newPage();
  await signIn(viewer, userName, PASSWORD);
  await expect(viewer.getByRole('link', { name: 'Audit' })).toHaveCount(0);
  await viewer.goto('/app/company/users');
  await expect(viewer.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  const create = viewer.getByRole('button', { name: 'Create user' });
  await expect(create).toBeDisabled();
  await create.locator('..').hover();
  await expect(viewer.getByRole('tooltip')).toContainText(
    'You need the “users.create” permission to do this.',
  );
  await expect(viewer.getByRole('button', { name: /^Edit / }).first()).toBeDisabled();
  await expect(viewer.getByRole('button', { name: /^Delete / }).first()).toBeDisabled();
  await viewer.goto('/app/company/roles');
  await expect(viewer.getByRole('link', { name: roleName, exact: true })).toBeVisible();
  await viewer.goto('/app/company/permissions');
  await expect(
    viewer.getByRole('heading', { name: 'You do not have access to the permissions list' }),
  ).toBeVisible();
  await expect(viewer.getByText('“permissions.read”')).toBeVisible();
  await expectAccessible(viewer);
  await screenshotsOf(viewer, 'company-forbidden', async () => {
    await expect(viewer.getByText('Error 403')).toBeVisible();
  });
  await viewer.goto('/app/company/audit');
  await expect(viewer.getByText('Error 403')).toBeVisible();
  await viewer.goto('/app/company/users/create');
  await expect(viewer.getByText('Error 403')).toBeVisible();
  await other.close();

  // Edit each
  await page.goto(userUrl.replace(/\/read$/, '/update'));
  await page.getByLabel('Phone').fill('+41 44 000 00 00');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`User “${userName}” saved.`)).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '+41 44 000 00 00' })).toBeVisible();

  // Delete: the role is still assigned, so its delete page explains and links to the users.
  await page.getByRole('link', { name: roleName }).click();
  // The link navigates on the client: read the address once the role page has it.
  await expect(page).toHaveURL(/\/app\/company\/roles\/[^/]+\/read$/);
  const roleUrl = page.url();
  await page.getByRole('link', { name: 'Delete' }).click();
  await expect(page.getByText('It is still assigned to 1 user')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  // Judged whether or not the "saved" toast is still open: axe waits for it to settle.
  await expectAccessible(page);
  await screenshotsOf(page, 'company-role-delete-protected', async () => {
    await expect(page.getByText('It is still assigned to 1 user')).toBeVisible();
  });

  // Delete the user, then the role, then the permission.
  await page.goto(userUrl.replace(/\/read$/, '/delete'));
  await expect(
    page.getByText('Every device where they are signed in is signed out at once.'),
  ).toBeVisible();
  await expectAccessible(page);
  await screenshotsOf(page, 'company-user-delete', async () => {
    await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`User “${userName}” deleted.`)).toBeVisible();
  await expect(page).toHaveURL(/\/app\/company\/users$/);

  await page.goto(roleUrl.replace(/\/read$/, '/update'));
  await page.getByLabel('Description').fill('Renamed before going.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`Role “${roleName}” saved.`)).toBeVisible();
  await page.goto(roleUrl.replace(/\/read$/, '/delete'));
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`Role “${roleName}” deleted.`)).toBeVisible();
  await expect(page).toHaveURL(/\/app\/company\/roles$/);

  await page.goto('/app/company/permissions');
  await page.getByRole('searchbox', { name: 'Search permissions' }).fill(code);
  // The search settles (into the URL) before the click, so the row is one of the filtered list. (A
  // search landing after the click no longer pulls the page back: hooks/use-list-view.test.tsx.)
  await expect(page).toHaveURL(/[?&]search=/);
  await page.getByRole('link', { name: `Edit ${code}` }).click();
  await page.getByLabel('Description').fill('Edited once.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`Permission “${code}” saved.`)).toBeVisible();
  // The toast sits over the page's top-right actions, and a pointer resting on it keeps it open.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await page.getByRole('link', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`Permission “${code}” deleted.`)).toBeVisible();

  // The audit trail shows what was just done, with before/after in the side panel.
  await page.goto('/app/company/audit');
  await page.getByRole('button', { name: 'Filter by Action' }).click();
  // every recorded action is offered: the open menu scrolls, reachable by keyboard (axe)
  await expect(page.getByRole('menu')).toBeVisible();
  await expectAccessible(page);
  // on a phone the menu stays within the screen, its long entries wrapped
  await page.keyboard.press('Escape');
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: 360, height: 800 });
  await page.getByRole('button', { name: 'Filter by Action' }).click();
  const menuBox = (await page.getByRole('menu').boundingBox())!;
  expect(menuBox.x).toBeGreaterThanOrEqual(0);
  expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(360);
  await page.keyboard.press('Escape');
  await page.setViewportSize(viewport);
  await page.getByRole('button', { name: 'Filter by Action' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'role.update' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/filters%5Baction%5D=role.update/);
  const details = page.getByRole('button', { name: /^Details of role.update by/ }).first();
  await details.click();
  const sheet = page.getByRole('dialog');
  await expect(sheet.getByRole('table', { name: 'Changed fields' })).toContainText(
    'Renamed before going.',
  );
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Filter by Action' }).click();
  await page.getByRole('menuitem', { name: 'Clear action filter' }).click();
  await expect(page.getByRole('table', { name: 'Audit trail' })).toContainText('permission.delete');
  await expect(page.getByRole('table', { name: 'Audit trail' })).toContainText('user.delete');
  await screenshotsOf(page, 'company-audit', async () => {
    await expect(page.getByRole('table', { name: 'Audit trail' })).toContainText(
      'permission.delete',
    );
  });
});

test('a stale edit answers 409: the form shows what changed and overwrites only on purpose; leaving a dirty form asks', async ({
  page,
  request,
}) => {
  test.setTimeout(360_000);
  const api = new PortalClient(request);
  const name = unique('Stale');
  const role = await api.ok<Named>('POST', '/roles', { name, description: 'first' });
  await signInAt(page, `/app/company/roles/${role._id}/update`);
  await page.getByLabel('Description').fill('mine');

  // Leaving asks first.
  await page.getByRole('link', { name: 'Users' }).first().click();
  await expect(page.getByRole('alertdialog', { name: 'Leave without saving?' })).toBeVisible();
  await page.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(/\/update$/);

  // Someone else renames it meanwhile.
  await api.ok('PATCH', `/roles/${role._id}`, { version: role.version, name: `${name} theirs` });
  await page.getByRole('button', { name: 'Save changes' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Someone else changed this record' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'What they changed' })).toContainText(
    `${name} theirs`,
  );
  await expectAccessible(page);
  await screenshotsOf(page, 'company-stale-edit', async () => {
    // A reload forgets the edit: make the conflict again for the picture.
    const fresh = await api.ok<Named>('GET', `/roles/${role._id}`);
    await page.getByLabel('Description').fill(`mine ${fresh.version}`);
    await api.ok('PATCH', `/roles/${role._id}`, {
      version: fresh.version,
      description: `theirs ${fresh.version}`,
    });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeVisible();
  });
  // Nothing was overwritten so far (with screenshots, the conflict was made again after each reload).
  const before = await api.ok<{ description: string; name: string }>('GET', `/roles/${role._id}`);
  expect(before.name).toBe(`${name} theirs`);
  expect(before.description).not.toMatch(/^mine/);
  await dialog.getByRole('button', { name: 'Overwrite with my changes' }).click();
  await expect(page.getByText(`Role “${name} theirs” saved.`)).toBeVisible();
  const after = await api.ok<{ description: string; name: string }>('GET', `/roles/${role._id}`);
  expect(after.name).toBe(`${name} theirs`);
  expect(after.description).toMatch(/^mine/);
});

test('role–permission matrix: changed cells highlighted, saved per role, visible on the role page', async ({
  page,
  request,
}) => {
  test.setTimeout(360_000);
  const api = new PortalClient(request);
  const name = unique('Matrix');
  const role = await api.ok<Named>('POST', '/roles', { name, description: '' });
  await signInAt(page, '/app/company/roles');
  await page.getByRole('link', { name: 'Permission matrix' }).click();
  await expect(page.getByRole('heading', { name: 'Permission matrix' })).toBeVisible();
  const cell = page.getByRole('checkbox', { name: `${name}: users.read`, exact: true });
  await cell.check();
  await expect(cell.locator('xpath=ancestor::td')).toHaveAttribute('data-changed', 'true');
  await expect(page.getByText('1 change in 1 role, not saved yet.')).toBeVisible();
  // The Administrator column cannot change.
  await expect(
    page.getByRole('checkbox', { name: 'Administrator: users.read', exact: true }),
  ).toBeDisabled();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved 1 role.')).toBeVisible();
  await expect(page.getByText('No unsaved changes.')).toBeVisible();
  const saved = await api.ok<{ permissionIds: string[] }>('GET', `/roles/${role._id}`);
  expect(saved.permissionIds).toHaveLength(1);
  await screenshotsOf(page, 'company-matrix', async () => {
    await expect(
      page.getByRole('checkbox', { name: `${name}: users.read`, exact: true }),
    ).toBeChecked();
  });
  await page.goto(`/app/company/roles/${role._id}/read`);
  await expect(page.getByRole('heading', { name: 'Permissions (1)' })).toBeVisible();
  await expect(page.getByText('users.read', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent changes' })).toBeVisible();
  // the record's history in words, without action codes (issue #43)
  await expect(page.getByText('Role changed by admin').first()).toBeVisible();
  await screenshotsOf(page, 'company-role-view', async () => {
    await expect(page.getByRole('heading', { name: 'Permissions (1)' })).toBeVisible();
  });
});

test('bulk delete with one protected row reports it; CSV export equals the API list across pages', async ({
  page,
  request,
}) => {
  test.setTimeout(540_000);
  const api = new PortalClient(request);
  const tag = unique('bulk');
  // Three users sharing the admin's mail domain, so one search shows them and the admin.
  for (let i = 1; i <= 3; i += 1) {
    await api.ok('POST', '/users', {
      userName: `${tag}-${i}`,
      email: `${tag}-${i}@demo.local`,
      userFirstName: 'Bulk',
      userLastName: `Number ${i}`,
      password: PASSWORD,
    });
  }
  await signInAt(page, '/app/company/users?search=demo.local');
  await expect(page.getByText('1–4 of 4 users')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await page.getByRole('button', { name: 'Delete selected (4)' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete 4 users?' });
  await expect(confirm.getByRole('list', { name: 'To be deleted' })).toContainText(ADMIN.userName);
  await expect(confirm).toContainText('Will be refused: You cannot delete your own account.');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Delete 4 users' }).click();
  const outcome = page.getByRole('list', { name: 'Outcome per row' });
  await expect(outcome).toContainText(`${ADMIN.userName}`);
  await expect(outcome).toContainText('not deleted — You cannot delete your own account');
  await expect(page.getByText('3 deleted, 1 not deleted.')).toBeVisible();
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByText('1–1 of 1 user', { exact: true })).toBeVisible();

  // CSV: 130 users over two API pages, exported sorted by user name descending.
  const csvTag = unique('csv');
  for (let i = 0; i < 130; i += 1) {
    await api.ok('POST', '/users', {
      userName: `${csvTag}-${String(i).padStart(3, '0')}`,
      email: `${csvTag}-${i}@example.test`,
      userFirstName: i === 7 ? '=cmd|calc' : 'Csv',
      userLastName: `Row, "${i}"`,
      password: PASSWORD,
    });
  }
  await page.goto(`/app/company/users?search=${csvTag}&sort=userName:desc`);
  await expect(page.getByText('1–10 of 130 users')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  await expect(page.getByText('Exported 130 users to CSV.')).toBeVisible();
  const text = fs.readFileSync((await download.path())!, 'utf8');
  const lines = text.trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'id,userName,userFirstName,userLastName,email,phone,status,roles,lastSignInAt,createdAt',
  );
  const expected = await api.all<{ _id: string; userName: string }>('/users', {
    search: csvTag,
    sort: 'userName:desc',
  });
  expect(expected).toHaveLength(130);
  expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(
    expected.map((u) => `${u._id},${u.userName}`),
  );
  // Formula cells are neutralised, quotes and commas quoted.
  expect(text).toContain(`,'=cmd|calc,`);
  expect(text).toContain(`"Row, ""7"""`);
  expect(await tableColumn(page, 'Users', 'User name')).toHaveLength(10);
});
