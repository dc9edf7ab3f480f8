import { expect, test, type Page } from '@playwright/test';
import { PortalClient, unique } from './company-support';
import { checkScreens, signInAt } from './support';
import { adminRefreshToken, requireNobody, totpCode } from './two-step-support';

const PASSWORD = 'two-step-e2e-passphrase';
// Each screen is checked with axe four times (light, dark, 1280, 360 px): slow on a busy machine.
test.setTimeout(240_000);

const reaches = (page: Page) => page.getByRole('region', { name: 'Who this policy reaches' });
const users = (n: number) => (n === 1 ? '1 user' : `${n} users`);

/** What the server counts for a policy: the page must say the same (other specs add users too). */
async function coverageOf(api: PortalClient, code: string) {
  return api.ok<{ required: number; toSetUp: { count: number } }>(
    'GET',
    `/security/mfa-policy/coverage?requireFor=permissions&permissionCodes=${code}`,
  );
}

test('before saving, the policy page says who has a second step and who will be asked; saving asks, then says it saved; a reset says what the policy will ask (issue 43)', async ({
  page,
  request,
}) => {
  const api = new PortalClient(request);
  const tag = unique('policy');
  const code = `twostep.${tag}`;
  const permission = await api.ok<{ _id: string }>('POST', '/permissions', {
    code,
    name: `Two-step ${tag}`,
  });
  const person = (name: string, last: string) =>
    api.ok<{ _id: string }>('POST', '/users', {
      userName: `${tag}-${name}`,
      email: `${tag}-${name}@example.test`,
      userFirstName: name,
      userLastName: last,
      password: PASSWORD,
      permissionIds: [permission._id],
    });
  // "Aardvark" sorts before every other user of the company: the short list shows them.
  const withApp = await person('Ada', 'Aardvark');
  await person('Bob', 'Aardvarkson');
  const ada = new PortalClient(request, `${tag}-Ada`, PASSWORD);
  const { secret } = await ada.ok<{ secret: string }>('POST', '/accounts/mfa/totp/setup', {
    currentPassword: PASSWORD,
  });
  await ada.ok('POST', '/accounts/mfa/totp/confirm', { code: totpCode(secret) });

  // The Administrator role holds the new permission too: the policy will catch the admin as well.
  const adminRefresh = await adminRefreshToken(request);
  try {
    await signInAt(page, '/app/security');
    // One h1, and the crumbs file the page where the sidebar does.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Two-step sign-in');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveText(
      /Dashboard.*Company.*Two-step sign-in/,
    );
    await expect(reaches(page)).toContainText(/of \d+ users? already (has|have) a second step\./);
    await expect(
      reaches(page).getByRole('list', { name: 'Users with a second step' }),
    ).toContainText('Ada Aardvark');

    await page.getByLabel('Holders of chosen permissions').check();
    await page.getByLabel(code).check();
    // Ada has an app; Bob and the admin (and any other administrator) have none and would be asked.
    const before = await coverageOf(api, code);
    expect(before.required - before.toSetUp.count).toBe(1);
    await expect(reaches(page)).toContainText(
      `${before.toSetUp.count} of the ${users(before.required)} this policy requires it of will be asked to set one up at their next sign-in.`,
    );
    const asked = reaches(page).getByRole('list', {
      name: 'Users who will be asked to set one up',
    });
    await expect(asked).toContainText('Bob Aardvarkson');
    await expect(asked).not.toContainText('Ada Aardvark');
    await checkScreens(page, 'two-step-policy-coverage', () =>
      expect(asked).toContainText('Bob Aardvarkson'),
    );

    await page.getByRole('button', { name: 'Save policy' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(
      'Require a second step of holders of the chosen permissions?',
    );
    await expect(dialog).toContainText(
      `${users(before.toSetUp.count)} without a second step will be asked to set one up at their next sign-in (of ${users(before.required)} it requires one of).`,
    );
    await checkScreens(page, 'two-step-policy-confirm', () => expect(dialog).toBeVisible());
    // Cancel saves nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api.ok<{ requireFor: string }>('GET', '/security/mfa-policy')).requireFor).toBe(
      'nobody',
    );
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save policy' }).click();
    await expect(page.getByText('Two-step policy saved.')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Policy saved.' })).toBeVisible();
    expect(await api.ok('GET', '/security/mfa-policy')).toEqual({
      requireFor: 'permissions',
      permissionCodes: [code],
    });
    await checkScreens(page, 'two-step-policy-saved', () =>
      expect(page.getByRole('status').filter({ hasText: 'Policy saved.' })).toBeVisible(),
    );

    // Resetting Ada's app while the policy requires one: the toast says what really happens next.
    await page.goto(`/app/company/users/${withApp._id}/read`);
    await page.getByRole('button', { name: 'Reset second step' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Reset' }).click();
    await expect(
      page.getByText(
        `Second step of ${tag}-Ada reset and their sign-ins ended. The company policy asks them to set up a new second step when they next sign in.`,
      ),
    ).toBeVisible();
    await page.goto('/app/security');
    // Ada now has none either: everyone the policy requires it of will be asked.
    await expect(reaches(page)).toContainText(
      `${before.required} of the ${users(before.required)} this policy requires it of will be asked to set one up at their next sign-in.`,
    );
  } finally {
    await requireNobody(request, adminRefresh);
  }
});
