import { expect, type APIRequestContext } from '@playwright/test';
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
