import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  expect,
  type APIRequestContext,
  type ConsoleMessage,
  type Download,
  type Page,
  type Request,
  type Response,
} from '@playwright/test';
import type * as axe from 'axe-core';
import { E2E } from '../playwright.config';

export const ADMIN = { userName: 'admin', email: 'admin@demo.local' };

/**
 * Forgets the browser's sign-in (cookies and the persisted session) without signing out. The page
 * first leaves the app for a plain answer of the same origin: a running app writes its session back
 * to storage when its state changes (a sign-in just made, a token rotation), which could undo a clear
 * made under it.
 */
export async function forgetSignIn(page: Page) {
  await leaveApp(page);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
}

/**
 * Drops the persisted session but keeps the refresh cookie, so the next visit restores the session
 * from the cookie alone. The app is left first: a running app writes its state back into storage.
 */
export async function forgetPersistedSession(page: Page) {
  await leaveApp(page);
  await page.evaluate(() => localStorage.removeItem('persist:root'));
}

/** Navigates to a page of the same origin that runs no app code. */
async function leaveApp(page: Page) {
  await page.goto(`${new URL(page.url()).origin}/api/live/`);
}

/** Signs in through the form and waits for the dashboard: for the specs about signing in. */
export async function signInWithForm(
  page: Page,
  login: string = ADMIN.userName,
  password = E2E.adminPassword,
) {
  await page.goto('/auth/signin');
  await page.getByLabel('User name or email').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/** What a sign-in through the API answers (tokens, or a second step to take). */
interface SignInAnswer {
  accessToken?: string;
  refreshToken?: string;
  mfaRequired?: boolean;
}

/**
 * Signs in through the portal API with `request` (a page's own, `page.request`, keeps the refresh
 * cookie the answer sets) by user name, or by email when `login` has an @; fails on anything but 200.
 */
export async function apiSignIn(
  request: APIRequestContext,
  login: string = ADMIN.userName,
  password = E2E.adminPassword,
): Promise<SignInAnswer> {
  const credentials = login.includes('@')
    ? { email: login, password }
    : { userName: login, password };
  const answer = await request.post(`${E2E.portalUrl}/api/accounts/sign-in`, {
    data: credentials,
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: SignInAnswer }).data;
}

/**
 * Signs in through the API in the page's browser context, then opens `at`: the app restores the
 * session from the refresh cookie the answer set, as after a reload. One page load where the form
 * takes two (the form, then the page a test is about); the form itself is what `signInWithForm`'s
 * specs (session, two-step) test.
 */
export async function signInAt(
  page: Page,
  at: string,
  login: string = ADMIN.userName,
  password = E2E.adminPassword,
) {
  const answer = await apiSignIn(page.request, login, password);
  expect(answer.mfaRequired, 'an account with a second step signs in through the form').toBeFalsy();
  await page.goto(at);
}

/** Signs in through the API (`signInAt`) and waits for the dashboard. */
export async function signIn(page: Page, login?: string, password?: string) {
  await signInAt(page, '/app', login, password);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/** axe-core's minified browser bundle (half the size of the one it exports), read once per worker. */
const axeSource = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
declare global {
  interface Window {
    axe: typeof axe;
  }
}

/**
 * axe on the page once its animations have settled, with axe's default rules; the suite reads only
 * the violations. axe is put into the page once per page load and serves every check until the next
 * load (the app moves between its pages without one): `@axe-core/playwright` put axe (unminified,
 * 1.3 MB) into the page again at every check, 0.2 of a check's 0.3 s on the dashboard.
 * `resultTypes: ['violations']` keeps axe from building selectors for every node that passed (each
 * violation is still reported in full): on a 300-row table a check went from 2.9 to 1.0 s.
 */
async function axeOf(page: Page, rules: Rules = 'all'): Promise<axe.AxeResults> {
  await settled(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(
    (only) =>
      window.axe.run(document, {
        resultTypes: ['violations'],
        ...(only ? { runOnly: { type: 'rule', values: only } } : {}),
      }),
    rules === 'colour' ? COLOUR_RULES : null,
  );
}

/** Every rule of axe's default run, or only those that read colours (see `checkScreens`). */
type Rules = 'all' | 'colour';
/** The rules of axe's default run tagged `cat.color` (its AAA `color-contrast-enhanced` is off). */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Waits until no finite CSS animation or transition runs (a spinner's endless one does not count):
 * axe must measure settled colours — a toast fading in or a theme mid-change reads as low contrast.
 */
async function settled(page: Page) {
  // Two frames first: a transition set off by what just happened (a toast mounted) starts on one.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
  await noFiniteAnimation(page);
}

/** No finite CSS animation or transition running now (checked at once, then on each frame). */
async function noFiniteAnimation(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(page: Page, rules: Rules = 'all') {
  // Named in a failure: an error toast nobody expected (a 5xx, a lost connection) once failed a
  // colour check as it faded out, and the failure could not say what the toast had said.
  const toasts = await page.locator('[data-sonner-toast]').allInnerTexts();
  // a button an answer just enabled fades from half opacity: measured mid-fade it fails contrast
  // (CI, session 24: the cap's answer arrived as the liability card was checked)
  await noFiniteAnimation(page);
  const { violations } = await axeOf(page, rules);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    toasts.length > 0 ? `toasts shown: ${toasts.join(' | ')}` : undefined,
  ).toEqual([]);
}

/** The stored theme and the root class the theme provider sets (no reload: the view stays as it is). */
export async function applyTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((t) => {
    localStorage.setItem('vite-ui-theme', t);
    document.documentElement.classList.remove('light', 'dark');
    document.documentElement.classList.add(t);
  }, theme);
  // Colours transition on a theme change: what follows must see the settled colours, not a mid-fade.
  await settled(page);
}

/**
 * The checks of a screen in light and dark at 1280 and 360 px, the theme switched live (the page's
 * state stays): axe, nothing wider than the screen (wide content scrolls in its own region), and a
 * screenshot of each when asked for. `ready` waits for what must show at each width. Ends in light
 * at 1280 px. The dark pass runs axe's colour rules only: the theme is a class on the root and
 * nothing else in the page changes with it, so every other rule would answer as in the light pass at
 * the same width (~0.2 s of a ~0.4 s check saved, 120 times a run).
 */
export async function checkScreens(
  page: Page,
  name: string,
  ready: (page: Page) => Promise<void> = async () => {},
) {
  for (const theme of ['light', 'dark'] as const) {
    await applyTheme(page, theme);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await ready(page);
      await expectAccessible(page, theme === 'dark' ? 'colour' : 'all');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      // always, screenshot or not: the next width starts from the top, as a full-page shot needs
      // (a scrolled page paints the sticky header mid-page)
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `${name}-${width}-${theme}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await applyTheme(page, 'light');
}

/** A full-page screenshot in `artifacts/screenshots` when screenshots are asked for (`E2E.screenshots`). */
export async function screenshot(page: Page, name: string) {
  if (!E2E.screenshots) return;
  fs.mkdirSync(E2E.screenshotsDir, { recursive: true });
  await page.screenshot({ path: path.join(E2E.screenshotsDir, `${name}.png`), fullPage: true });
}

/** The newest reset link mailed to `to` after `since` (the portal's outbox folder). */
export function resetLinkFor(to: string, since: number): Promise<string> {
  return mailedLinkFor(to, since, 'reset-password');
}

/** The newest `/auth/<page>?token=…` link mailed to `to` after `since` (the portal's outbox folder). */
export async function mailedLinkFor(to: string, since: number, page: string): Promise<string> {
  const outbox = path.join(E2E.dataDir!, 'outbox');
  const pattern = new RegExp(`https?://\\S+/auth/${page}\\?token=[^\\s"<>]+`);
  let link: string | undefined;
  await expect
    .poll(
      () => {
        if (!fs.existsSync(outbox)) return undefined;
        const files = fs
          .readdirSync(outbox)
          .map((f) => path.join(outbox, f))
          .filter((f) => fs.statSync(f).mtimeMs >= since - 1000)
          .sort();
        for (const file of files.reverse()) {
          const text = fs.readFileSync(file, 'utf8');
          const match = pattern.exec(text);
          if (match && text.includes(`To: ${to}`)) return (link = match[0]);
        }
        return undefined;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return link!;
}

/** The access token the app persisted (redux-persist stores each slice as a JSON string). */
export async function persistedAccessToken(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const root = localStorage.getItem('persist:root');
    if (!root) return null;
    const auth = JSON.parse(JSON.parse(root).auth ?? 'null') as { accessToken?: string } | null;
    return auth?.accessToken ?? null;
  });
}

export function expOf(token: string): number {
  const payload = token.split('.')[1]!;
  return (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp: number }).exp;
}

/**
 * Moves the browser's clock (every page of the context, and pages it opens later) to 1.5 s past the
 * token's expiry instead of waiting for it: the app rotates a token its clock says is about to expire
 * before its next call (`TOKEN_EXPIRY_MARGIN_SECONDS`), as it would once the time had passed. The
 * portal's clock is not moved, so the page's runs ahead of it from then on.
 */
export async function passExpiryOf(page: Page, token: string) {
  await page.clock.setSystemTime(expOf(token) * 1000 + 1500);
  // Playwright's clock stands still once set: from here it runs with real time again.
  await page.clock.resume();
}

/** Every axe-core violation (any impact) on the page as it is now, as readable lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await axeOf(page);
  return violations.map(
    (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

/**
 * Clicks what starts a download and returns the download. Downloads of the app are fetched first (a
 * token refresh, the file read into memory, then saved), so when none comes the error tells what the
 * page did meanwhile — its address, its toasts and live messages (a download's progress), every API
 * call asked, answered or failed — instead of only "timeout": CI keeps no trace of a browser run.
 */
export async function downloadOf(page: Page, click: () => Promise<void>): Promise<Download> {
  const seen: string[] = [];
  const pathOf = (url: string) => new URL(url).pathname;
  const onRequest = (r: Request) => {
    if (pathOf(r.url()).startsWith('/api/')) seen.push(`asked ${r.method()} ${pathOf(r.url())}`);
  };
  const onResponse = (r: Response) => {
    if (pathOf(r.url()).startsWith('/api/')) seen.push(`${r.status()} ${pathOf(r.url())}`);
  };
  const onFinished = (r: Request) => {
    if (pathOf(r.url()).startsWith('/api/')) seen.push(`read ${pathOf(r.url())}`);
  };
  const onFailed = (r: Request) =>
    seen.push(`failed ${pathOf(r.url())}: ${r.failure()?.errorText ?? '?'}`);
  const onConsole = (m: ConsoleMessage) => {
    if (m.type() === 'error') seen.push(`console: ${m.text()}`);
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  page.on('console', onConsole);
  try {
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await click();
    return await download.catch(async (error: unknown) => {
      const said = await page
        .locator('[data-sonner-toast], [aria-live]')
        .allInnerTexts()
        .catch(() => []);
      throw new Error(
        `No download after the click. Page: ${page.url()}; toasts and live messages: ` +
          `${JSON.stringify(said.filter(Boolean))}; meanwhile: ${seen.join(' | ') || 'no API call'}. ` +
          `(${String(error)})`,
      );
    });
  } finally {
    page.off('request', onRequest);
    page.off('response', onResponse);
    page.off('requestfinished', onFinished);
    page.off('requestfailed', onFailed);
    page.off('console', onConsole);
  }
}
