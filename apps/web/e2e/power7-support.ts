import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { expectAccessible, screenshot } from './support';

/** What the Power 7 browser specs share: axe and screenshots of a step in both themes and widths. */

/** The stored theme and the root class the theme provider sets (no reload: the view stays as it is). */
export async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((t) => {
    localStorage.setItem('vite-ui-theme', t);
    document.documentElement.classList.remove('light', 'dark');
    document.documentElement.classList.add(t);
  }, theme);
  // Colours transition on a theme change: axe must measure the settled colours, not a mid-fade.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running'),
  );
}

/** axe in light and dark at 1280 and 360 px, and the four screenshots of a step. */
export async function checkStep(page: Page, name: string, ready: (page: Page) => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await ready(page);
      // a narrow screen makes wide tables scroll: their regions must be focusable (axe)
      await expectAccessible(page);
      // nothing holds the page wider than the screen (wide content scrolls in its own region)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      // a full-page shot of a scrolled page paints the sticky header mid-page
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `power7-${name}-${width}-${theme}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await setTheme(page, 'light');
}

/**
 * Deletes the administrator's Power 7 sessions through the API. The Power 7 specs share one running
 * product and its administrator, so each starts from no sessions, whatever the one before it left.
 */
export async function clearAdminSessions(request: APIRequestContext): Promise<void> {
  const signIn = await request.post(`${E2E.portalUrl}/api/accounts/sign-in`, {
    data: { userName: 'admin', password: E2E.adminPassword },
  });
  expect(signIn.status()).toBe(200);
  const cleared = await request.post(`${E2E.power7Url}/api/sessions/clear-all/`, {
    headers: { Authorization: `Bearer ${(await signIn.json()).data.accessToken}` },
  });
  expect(cleared.status()).toBe(200);
}
