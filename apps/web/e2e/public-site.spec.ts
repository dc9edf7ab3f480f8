import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';

test('landing page leads to sign-in, unknown paths show the not-found page', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Power Analyzer' })).toBeVisible();
  await expect(page.getByText('The All in one tool for your business.')).toBeVisible();
  await expect(page.getByAltText('Power Analyzer Logo').first()).toBeVisible();
  await expect(page.getByText(`© ${new Date().getFullYear()} Power Analyzer`)).toBeVisible();

  await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);

  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('both services answer their liveness checks in the envelope', async ({ request }) => {
  for (const base of [E2E.portalUrl, E2E.power7Url]) {
    await expect
      .poll(async () => (await request.get(`${base}/api/live/`)).status(), { timeout: 30_000 })
      .toBe(200);
    const body = await (await request.get(`${base}/api/live/`)).json();
    expect(body).toMatchObject({ success: true, code: 'OK', status: 200, data: { live: true } });
  }
  const missing = await request.get(`${E2E.portalUrl}/api/nothing-here`);
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
});

test('the built app is served precompressed, hashed assets cached for a year', async ({
  request,
}) => {
  const index = await request.get('/', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(index.headers()['cache-control']).toBe('no-cache');
  const script = /<script[^>]+src="([^"]+\.js)"/.exec(await index.text())?.[1];
  expect(script).toMatch(/^\/assets\/index-[\w-]+\.js$/);
  const asset = await request.get(script!, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(asset.status()).toBe(200);
  expect(asset.headers()['content-encoding']).toBe('br');
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});
