import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { apiSignIn } from './support';

/** A bearer header for the administrator, from a sign-in through the API (lives `E2E.accessTokenTtl`). */
export async function adminHeaders(request: APIRequestContext): Promise<{ Authorization: string }> {
  return { Authorization: `Bearer ${(await apiSignIn(request)).accessToken}` };
}

/**
 * Deletes the administrator's Power 7 sessions through the API. The Power 7 specs share one running
 * product and its administrator, so each starts from no sessions, whatever the one before it left.
 */
export async function clearAdminSessions(request: APIRequestContext): Promise<void> {
  const cleared = await request.post(`${E2E.power7Url}/api/sessions/clear-all/`, {
    headers: await adminHeaders(request),
  });
  expect(cleared.status()).toBe(200);
}

/**
 * Waits until a finished session's page has stopped growing: the budget insight and its "try a
 * budget" read-out answered, the risk figures and the draws listed — no placeholder ("Loading …")
 * left. The insight and the risk section are hundreds of pixels taller than their placeholders, so a
 * click below them while they load can land where the button was a moment before: CI lost an export
 * click that way (no request was made, no download came), and a "Check the limit" click (no limit
 * was asked, so no progress bar came; session 23).
 */
export async function sessionPageSettled(page: Page): Promise<void> {
  await expect(page.getByTestId('power7-done')).toBeVisible({ timeout: 60_000 });
  const readOut = page.getByTestId('power7-coverage');
  await expect(readOut).toBeVisible({ timeout: 30_000 });
  await expect(readOut).not.toHaveText('Working it out…', { timeout: 30_000 });
  await expect(page.locator('main [aria-label^="Loading "]')).toHaveCount(0, { timeout: 30_000 });
}

/**
 * Waits until the liability card has answered a limit: its figures, the cap and the refused tickets
 * in place of their placeholders. Each answer makes the card taller and moves the buttons below it:
 * a click while one arrives can land elsewhere (CI, session 26: "Open a live book" missed, and the
 * page stayed as it was).
 */
export async function liabilitySettled(section: Locator): Promise<void> {
  await expect(section.getByTestId('power7-limit-run')).toBeVisible({ timeout: 60_000 });
  await expect(section.locator('[data-slot="skeleton"]')).toHaveCount(0, { timeout: 30_000 });
}

/**
 * Uploads a customer file through the Power 7 API as the administrator (the upload page has its own
 * spec) and waits for its analysis, signing in again when the suite's short-lived token expires
 * during the wait. `fields` are the form's other fields (budget, payouts, pool, currency).
 */
export async function uploadDone(
  request: APIRequestContext,
  csv: string,
  name: string,
  fields: Record<string, string>,
): Promise<string> {
  let headers = await adminHeaders(request);
  const res = await request.post(`${E2E.power7Url}/api/upload/`, {
    headers,
    multipart: {
      ...fields,
      customer_file: { name, mimeType: 'text/csv', buffer: Buffer.from(csv) },
    },
  });
  expect(res.status()).toBe(202);
  const id = (await res.json()).data._id as string;
  await expect
    .poll(
      async () => {
        const status = await request.get(
          `${E2E.power7Url}/api/power7/processing-status/?session=${id}`,
          { headers },
        );
        if (status.status() === 401) {
          headers = await adminHeaders(request);
          return 'token expired';
        }
        return (await status.json()).data.status;
      },
      { timeout: 90_000 },
    )
    .toBe('done');
  return id;
}
