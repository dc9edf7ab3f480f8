import { expect, type Page } from '@playwright/test';
import { expectAccessible, screenshot } from './support';

/** What the Power 7 browser specs share: axe and screenshots of a step in both themes and widths. */

/** The stored theme and the root class the theme provider sets (no reload: the view stays as it is). */
async function setTheme(page: Page, theme: 'light' | 'dark') {
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
