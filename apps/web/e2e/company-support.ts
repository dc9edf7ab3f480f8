import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { ADMIN, apiSignIn, applyTheme, expectAccessible, screenshot } from './support';

/**
 * The portal API as a person's script would call it (the suite's access tokens live 10 s, so every
 * call that meets a 401 signs in again). Used to seed data and to get the answers the screens must
 * match.
 */
export class PortalClient {
  private token: string | null = null;
  constructor(
    private readonly request: APIRequestContext,
    private readonly login: string = ADMIN.userName,
    private readonly password: string = E2E.adminPassword,
  ) {}

  private async signIn() {
    this.token = (await apiSignIn(this.request, this.login, this.password)).accessToken!;
  }

  async call<T = unknown>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; data: T; message: string }> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (!this.token) await this.signIn();
      const res = await this.request.fetch(`${E2E.portalUrl}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${this.token}` },
        ...(body === undefined ? {} : { data: body }),
      });
      if (res.status() === 401 && attempt === 0) {
        this.token = null;
        continue;
      }
      const json = (await res.json().catch(() => ({}))) as { data: T; message: string };
      return { status: res.status(), data: json.data, message: json.message };
    }
    throw new Error('unreachable');
  }

  async ok<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) {
    const answer = await this.call<T>(method, path, body);
    expect(answer.status, `${method} ${path}: ${answer.message}`).toBeLessThan(300);
    return answer.data;
  }

  /** Every item of a list query (100 per page), as the export must contain them. */
  async all<T>(path: string, query: Record<string, string> = {}): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page += 1) {
      const params = new URLSearchParams({ ...query, page: String(page), pageSize: '100' });
      const data = await this.ok<{ items: T[]; totalPages: number }>('GET', `${path}?${params}`);
      items.push(...data.items);
      if (page >= data.totalPages) return items;
    }
  }
}

export const unique = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

/** The texts of one column of a table (found by its header), top to bottom. */
export async function tableColumn(page: Page, table: string, column: string) {
  const grid = page.getByRole('table', { name: table });
  // By the header's text, not its position: the list kit puts its own columns first.
  const index = await grid.locator('thead th').evaluateAll(
    // startsWith: a sorted header also shows its sort order ("User name 1").
    (ths, name) => ths.findIndex((th) => (th as HTMLElement).innerText.trim().startsWith(name)),
    column,
  );
  if (index < 0) throw new Error(`No column "${column}" in the ${table} table`);
  return grid
    .locator('tbody tr')
    .evaluateAll(
      (trs, at) =>
        trs.map((tr) => (tr.children[at] as HTMLElement | undefined)?.innerText.trim() ?? ''),
      index,
    );
}

export async function storeTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((value) => localStorage.setItem('vite-ui-theme', value), theme);
}

/**
 * The current page in dark, checked with axe (callers check the light one themselves), and with
 * `E2E.screenshots` its screenshots at 1280 and 360 px in light and dark. Without screenshots nothing
 * needs a reload: the theme's class is switched on this very page, as `checkScreens` does, and axe's
 * colour rules run (nothing else changes with the theme). The screenshots reload the page in each
 * theme (the stored theme is read at load); `ready` then waits for, or makes again, what must be on
 * screen, and the page ends reloaded in light at 1280 px.
 */
export async function screenshotsOf(page: Page, name: string, ready: () => Promise<void>) {
  if (!E2E.screenshots) {
    await applyTheme(page, 'dark');
    await expectAccessible(page, 'colour');
    await applyTheme(page, 'light');
    return;
  }
  const reloadIn = async (theme: 'light' | 'dark', width: number) => {
    await storeTheme(page, theme);
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    // no call of the page is cut off by the reload
    await page.waitForLoadState('networkidle');
    await page.reload();
    await ready();
  };
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [360, 1280]) {
      await reloadIn(theme, width);
      await screenshot(page, `${name}-${width}-${theme}`);
      if (theme === 'dark' && width === 1280) await expectAccessible(page);
    }
  }
  await reloadIn('light', 1280);
}
