import { expect, test, type Page } from '@playwright/test';
import { PortalClient, unique } from './company-support';
import { checkScreens, expectAccessible, screenshot, signInAt } from './support';

// The tests stand alone (each makes what it needs, under unique names): they may run on either
// worker's product, so the suite's two workers finish together (docs/benchmarks/test-suite.md).
test.describe.configure({ mode: 'parallel' });

const PASSWORD = 'bulk change passphrase 2026';

/** Creates users named `<tag>-<n>` (roles by id) through the API; returns their ids. */
async function seedUsers(api: PortalClient, tag: string, count: number, roleIds: string[] = []) {
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const user = await api.ok<{ _id: string }>('POST', '/users', {
      userName: `${tag}-${n}`,
      email: `${tag}-${n}@example.test`,
      userFirstName: 'Bulk',
      userLastName: `Person ${n}`,
      password: PASSWORD,
      roleIds,
    });
    ids.push(user._id);
  }
  return ids;
}

/**
 * Axe and screenshots of what `open` puts on screen, at 1280 and 360 px, light and dark: opened once
 * on a fresh load, then `checkScreens` switches width and theme on the open page.
 */
async function checkEverywhere(page: Page, name: string, open: () => Promise<void>) {
  await page.reload();
  await open();
  await checkScreens(page, name);
}

test('a bulk status change reports the one user the clerk may not change', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = new PortalClient(request);
  const permissions = await admin.all<{ _id: string; code: string }>('/permissions');
  const codes = ['users.read', 'users.update', 'roles.read'];
  const clerkRole = await admin.ok<{ _id: string }>('POST', '/roles', {
    name: unique('Bulk clerks'),
    permissionIds: permissions.filter((p) => codes.includes(p.code)).map((p) => p._id),
  });
  const roles = await admin.all<{ _id: string; name: string }>('/roles');
  const administrator = roles.find((r) => r.name === 'Administrator')!;
  const tag = unique('bulkst');
  const plain = await seedUsers(admin, tag, 2);
  const [powerful] = await seedUsers(admin, `${tag}-adm`, 1, [administrator._id]);
  const clerkName = unique('clerk');
  await admin.ok('POST', '/users', {
    userName: clerkName,
    email: `${clerkName}@example.test`,
    userFirstName: 'Clerk',
    userLastName: 'Bulk',
    password: PASSWORD,
    roleIds: [clerkRole._id],
  });

  await signInAt(page, `/app/company/users?search=${tag}`, clerkName, PASSWORD);
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.locator('tbody tr')).toHaveCount(3, {
    timeout: 20_000,
  });
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expect(page.getByText('All 3 users on this page are selected.')).toBeVisible();
  await page.getByRole('button', { name: 'Change selected (3)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change 3 users' });
  await dialog.getByLabel('Set status').selectOption('inactive');
  await screenshot(page, 'users-bulk-change-dialog');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Apply' }).click();
  const result = page.getByRole('dialog', { name: 'Bulk change result' });
  await expect(result.getByRole('status')).toHaveText('2 changed, 1 could not be changed.');
  const failures = result.getByRole('list', { name: 'Users not changed' });
  await expect(failures).toContainText(`${tag}-adm-0`);
  await expect(failures).toContainText('permissions you do not hold yourself');
  await screenshot(page, 'users-bulk-change-result');
  await expectAccessible(page);
  await result.getByRole('button', { name: 'Close' }).click();
  for (const id of plain)
    expect((await admin.ok<{ status: string }>('GET', `/users/${id}`)).status).toBe('inactive');
  expect((await admin.ok<{ status: string }>('GET', `/users/${powerful}`)).status).toBe('active');
});

test('"select all N matching" changes users on every page; dialogs are accessible', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const admin = new PortalClient(request);
  const tag = unique('bulkall');
  const ids = await seedUsers(admin, tag, 12);
  const roles = await admin.all<{ _id: string; name: string }>('/roles');
  await signInAt(page, `/app/company/users?search=${tag}&pageSize=10`);
  await expect(page.getByRole('table', { name: 'Users' }).locator('tbody tr')).toHaveCount(10, {
    timeout: 20_000,
  });
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await page.getByRole('button', { name: 'Select all 12 matching users' }).click();
  await expect(page.getByText('All 12 matching users are selected.')).toBeVisible();
  await page.getByRole('button', { name: 'Change selected (12)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change 12 users' });
  const viewer = roles.find((r) => r.name !== 'Administrator') ?? roles[0]!;
  await dialog.getByLabel('Add role').selectOption(viewer._id);
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Bulk change result' }).getByRole('status'),
  ).toHaveText('12 changed.');
  for (const id of [ids[0]!, ids[11]!])
    expect((await admin.ok<{ roleIds: string[] }>('GET', `/users/${id}`)).roleIds).toContain(
      viewer._id,
    );

  await checkEverywhere(page, 'users-bulk-banner', async () => {
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('button', { name: 'Select all 12 matching users' }).click();
    await expect(page.getByText('All 12 matching users are selected.')).toBeVisible();
  });
  await checkEverywhere(page, 'users-bulk-dialog', async () => {
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('button', { name: /^Change selected/ }).click();
    await expect(page.getByRole('dialog', { name: /^Change \d+ users$/ })).toBeVisible();
  });
});

test('delete after "select all N matching" deletes on every page and reports the refused one', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const admin = new PortalClient(request);
  const permissions = await admin.all<{ _id: string; code: string }>('/permissions');
  const codes = ['users.read', 'users.delete'];
  const clerkRole = await admin.ok<{ _id: string }>('POST', '/roles', {
    name: unique('Delete clerks'),
    permissionIds: permissions.filter((p) => codes.includes(p.code)).map((p) => p._id),
  });
  const roles = await admin.all<{ _id: string; name: string }>('/roles');
  const administrator = roles.find((r) => r.name === 'Administrator')!;
  const tag = unique('bulkdel');
  const plain = await seedUsers(admin, tag, 11);
  const [powerful] = await seedUsers(admin, `${tag}-adm`, 1, [administrator._id]);
  const clerkName = unique('delclerk');
  await admin.ok('POST', '/users', {
    userName: clerkName,
    email: `${clerkName}@example.test`,
    userFirstName: 'Clerk',
    userLastName: 'Delete',
    password: PASSWORD,
    roleIds: [clerkRole._id],
  });

  await signInAt(page, `/app/company/users?search=${tag}&pageSize=10`, clerkName, PASSWORD);
  await expect(page.getByRole('table', { name: 'Users' }).locator('tbody tr')).toHaveCount(10, {
    timeout: 20_000,
  });
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expect(page.getByRole('button', { name: 'Delete selected (10)' })).toBeVisible();
  await page.getByRole('button', { name: 'Select all 12 matching users' }).click();
  await expect(page.getByText('All 12 matching users are selected.')).toBeVisible();
  await page.getByRole('button', { name: 'Delete selected (12)' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByRole('heading', { name: 'Delete 12 users?' })).toBeVisible();
  await expect(dialog).toContainText('2 users on other pages');
  await screenshot(page, 'users-bulk-delete-all-matching');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Delete 12 users' }).click();
  await expect(dialog.getByText('11 deleted, 1 not deleted.')).toBeVisible({ timeout: 60_000 });
  const report = dialog.getByRole('list', { name: 'Outcome per row' });
  await expect(report.locator('li').first()).toContainText(`${tag}-adm-0 (Bulk Person 0)`);
  await expect(report.locator('li').first()).toContainText('permissions you do not hold yourself');
  await screenshot(page, 'users-bulk-delete-all-matching-result');
  await expectAccessible(page);
  for (const id of plain) expect((await admin.call('GET', `/users/${id}`)).status).toBe(404);
  expect((await admin.call('GET', `/users/${powerful}`)).status).toBe(200);
});

test('undo after deleting one user and after a bulk delete brings them back', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = new PortalClient(request);
  const tag = unique('undo');
  const [one, two, three] = await seedUsers(admin, tag, 3);
  await signInAt(page, `/app/company/users/${one}/delete`);
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`User “${tag}-0” deleted.`)).toBeVisible();
  await screenshot(page, 'users-undo-toast');
  expect((await admin.call('GET', `/users/${one}`)).status).toBe(404);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText(`User “${tag}-0” restored.`)).toBeVisible();
  expect((await admin.call('GET', `/users/${one}`)).status).toBe(200);

  await page.goto(`/app/company/users?search=${tag}-`);
  await expect(page.getByRole('table', { name: 'Users' }).locator('tbody tr')).toHaveCount(3, {
    timeout: 20_000,
  });
  await page.getByRole('checkbox', { name: `Select ${tag}-1 (Bulk Person 1)` }).check();
  await page.getByRole('checkbox', { name: `Select ${tag}-2 (Bulk Person 2)` }).check();
  await page.getByRole('button', { name: 'Delete selected (2)' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete 2 users' }).click();
  await expect(page.getByText('Deleted 2 users.')).toBeVisible();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Undo the delete' }).click();
  await expect(page.getByText('Restored 2 users.')).toBeVisible();
  for (const id of [two, three]) expect((await admin.call('GET', `/users/${id}`)).status).toBe(200);
});

test('import: the dry run shows the bad row, the apply creates the good ones', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const admin = new PortalClient(request);
  const tag = unique('imp');
  const csv = [
    'email,userName,firstName,lastName,phone,roles,status',
    `${tag}-a@example.test,${tag}-a,Ann,Import,,,active`,
    `not-an-email,${tag}-b,Bo,Import,,No such role,active`,
    `${tag}-c@example.test,${tag}-c,Cy,Import,,,locked`,
  ].join('\n');
  await signInAt(page, '/app/company/users');
  await page.getByRole('link', { name: 'Import users' }).click();
  await expect(page.getByRole('heading', { name: 'Import users' })).toBeVisible();
  await page.getByLabel('Or paste the CSV').fill(csv);
  await page.getByRole('button', { name: 'Check the file' }).click();
  const report = page.getByRole('table', { name: 'Check of the file' });
  // with a problem the report opens on the problem rows alone
  await expect(report.locator('tbody tr')).toHaveCount(1, {
    timeout: 20_000,
  });
  await expect(report.locator('tbody tr').nth(0)).toContainText('Not imported');
  await expect(report.locator('tbody tr').nth(0)).toContainText('No role named "No such role"');
  await expect(report.locator('tbody tr').nth(0)).toContainText('email');
  await page.getByRole('button', { name: 'All rows (3)' }).click();
  await expect(report.locator('tbody tr')).toHaveCount(3);
  await expect(report.locator('tbody tr').nth(1)).toContainText('Not imported');
  expect((await admin.all('/users', { search: tag })).length).toBe(0);
  await page.getByRole('button', { name: 'Import 2 user(s)' }).click();
  await expect(page.getByText('2 user(s) created, 1 row(s) not imported.')).toBeVisible();
  const made = await admin.all<{ userName: string; status: string }>('/users', { search: tag });
  expect(made.map((u) => `${u.userName}:${u.status}`).sort()).toEqual([
    `${tag}-a:active`,
    `${tag}-c:locked`,
  ]);

  await checkEverywhere(page, 'users-import-report', async () => {
    await page.getByLabel('Or paste the CSV').fill(csv);
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(page.getByRole('table', { name: 'Check of the file' })).toBeVisible();
  });
});
