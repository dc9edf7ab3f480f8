import { expect as baseExpect, test, type Page } from '@playwright/test';
import { expectAccessible, signIn, signInAt } from './support';
import { PortalClient, screenshotsOf, tableColumn, unique } from './company-support';

// The tests stand alone (each makes what it needs, under unique names): they may run on either
// worker's product, so the suite's two workers finish together (docs/benchmarks/test-suite.md).
test.describe.configure({ mode: 'parallel' });

interface UserRow {
  _id: string;
  userName: string;
  email: string;
  status: string;
}

// A reload restores the session, loads the screen's chunk and asks the API: on the shared 2-core
// machine that can take longer than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

const STATUSES = ['active', 'inactive', 'locked'] as const;

/** The user names of the table body (column 1 after the selection checkbox). */
const shownUserNames = (page: Page) => tableColumn(page, 'Users', 'User name');

test('users list: sort, multi-sort, search, filter and paging match the API; URL restores the view', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(540_000);
  const api = new PortalClient(request);
  const tag = unique('lst');
  // 63 users: names sort differently from creation order; statuses cycle.
  for (let i = 0; i < 63; i += 1) {
    const n = String((i * 37) % 63).padStart(2, '0');
    await api.ok('POST', '/users', {
      userName: `${tag}-${n}`,
      email: `${tag}-${n}@example.test`,
      userFirstName: `First${String.fromCharCode(65 + (i % 26))}`,
      userLastName: `Last${n}`,
      status: STATUSES[i % 3],
      password: 'a-long-enough-password-1',
    });
  }
  const apiNames = async (query: Record<string, string>) => {
    const params = new URLSearchParams({ search: tag, pageSize: '10', page: '1', ...query });
    const data = await api.ok<{ items: UserRow[]; total: number }>('GET', `/users?${params}`);
    return { names: data.items.map((u) => u.userName), total: data.total };
  };

  await signIn(page);
  await page.getByRole('link', { name: 'Users' }).first().click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(page.getByText(/^1–10 of \d+ users$/)).toBeVisible();
  await expectAccessible(page);

  // Debounced search: the URL and the rows follow ~300 ms after typing stops.
  await page.getByRole('searchbox', { name: 'Search users' }).fill(tag);
  await expect(page).toHaveURL(new RegExp(`search=${tag}`));
  let expected = await apiNames({});
  expect(expected.total).toBe(63);
  await expect(page.getByText(`1–10 of 63 users`)).toBeVisible();
  await expect.poll(() => shownUserNames(page)).toEqual(expected.names);

  // Sort by user name (asc, then desc), then shift-click email as a second level.
  const table = page.getByRole('table', { name: 'Users' });
  await table.getByRole('button', { name: 'User name' }).click();
  await expect(page).toHaveURL(/sort=userName%3Aasc/);
  expected = await apiNames({ sort: 'userName:asc' });
  await expect.poll(() => shownUserNames(page)).toEqual(expected.names);
  await table.getByRole('button', { name: 'User name' }).click();
  expected = await apiNames({ sort: 'userName:desc' });
  await expect.poll(() => shownUserNames(page)).toEqual(expected.names);
  await table.getByRole('button', { name: 'First name' }).click({ modifiers: ['Shift'] });
  await expect(page).toHaveURL(/sort=userName%3Adesc%2CuserFirstName%3Aasc/);
  await expect(table.getByRole('columnheader', { name: /First name/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );

  // Filter by status through the facet.
  await page.getByRole('button', { name: 'Filter by Status' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Locked' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/filters%5Bstatus%5D=locked/);
  expected = await apiNames({
    sort: 'userName:desc,userFirstName:asc',
    'filters[status]': 'locked',
  });
  expect(expected.total).toBe(21);
  await expect.poll(() => shownUserNames(page)).toEqual(expected.names);
  await expect(page.getByText('1–10 of 21 users')).toBeVisible();

  // Paging: page 3 holds the last one; page size 20.
  await page.getByRole('button', { name: 'Page 3' }).click();
  expected = await apiNames({
    sort: 'userName:desc,userFirstName:asc',
    'filters[status]': 'locked',
    page: '3',
  });
  await expect.poll(() => shownUserNames(page)).toEqual(expected.names);
  await expect(page.getByText('21–21 of 21 users')).toBeVisible();

  // Back returns to page 1 of the same filter; forward to page 3 again.
  await page.goBack();
  await expect(page.getByText('1–10 of 21 users')).toBeVisible();
  await page.goForward();
  await expect(page.getByText('21–21 of 21 users')).toBeVisible();

  // A copied link opens the same view in another browser.
  const link = page.url();
  const other = await browser.newContext();
  const second = await other.newPage();
  await signInAt(second, link);
  await expect(second.getByText('21–21 of 21 users')).toBeVisible();
  await expect.poll(() => shownUserNames(second)).toEqual(expected.names);
  await expect(second.getByRole('searchbox', { name: 'Search users' })).toHaveValue(tag);
  await other.close();

  // Reload keeps it; the view is remembered when coming back through the sidebar.
  await page.reload();
  await expect(page.getByText('21–21 of 21 users')).toBeVisible();
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await page.getByRole('link', { name: 'Users' }).first().click();
  await expect(page.getByText('21–21 of 21 users')).toBeVisible();

  // Page size 20 goes back to page 1.
  await page.getByRole('combobox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '20' }).click();
  await expect(page.getByText('1–20 of 21 users')).toBeVisible();

  // Reset filters clears filters, search and sort and returns to page 1 (page size stays).
  await page.getByRole('button', { name: 'Reset filters' }).first().click();
  await expect(page).toHaveURL(/\/app\/company\/users\?pageSize=20$/);
  await expect(page.getByRole('searchbox', { name: 'Search users' })).toHaveValue('');
  // The full reset also brings back 10 rows per page.
  await page.getByRole('button', { name: 'Reset view' }).click();
  await expect(page).toHaveURL(/\/app\/company\/users$/);

  // Column visibility.
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Phone' }).click();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: 'Phone' })).toBeVisible();

  // An empty result says so and offers the reset.
  await page.getByRole('searchbox', { name: 'Search users' }).fill('no-such-user-anywhere');
  await expect(page.getByText('No users match this search or these filters.')).toBeVisible();
  await expectAccessible(page);

  await page.goto(`/app/company/users?search=${tag}&sort=userName:asc`);
  await expect(page.getByText('1–10 of 63 users')).toBeVisible();
  await screenshotsOf(page, 'company-users-list', async () => {
    await expect(page.getByText('1–10 of 63 users')).toBeVisible();
  });
});

test('permissions and roles lists: default newest first, filters and the 403-free states', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signInAt(page, '/app/company/permissions');
  await expect(page.getByRole('heading', { name: 'Permissions', level: 1 })).toBeVisible();
  await expect(page.getByText(/of \d+ permissions/)).toBeVisible();
  await page.getByRole('button', { name: 'Filter by Group' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Users' }).click();
  await expect(page.getByText('1–4 of 4 permissions')).toBeVisible();
  await expectAccessible(page);
  await screenshotsOf(page, 'company-permissions-list', async () => {
    await expect(page.getByText('1–4 of 4 permissions')).toBeVisible();
  });

  await page.goto('/app/company/roles');
  await expect(page.getByRole('heading', { name: 'Roles', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Administrator', exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshotsOf(page, 'company-roles-list', async () => {
    await expect(page.getByRole('link', { name: 'Administrator', exact: true })).toBeVisible();
  });
});
