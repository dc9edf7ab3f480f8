import { createHmac } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { apiSignIn } from './support';

/* RFC 6238 written here on its own (RFC 4648 base32, RFC 4226 truncation): no code shared with the product. */
function base32Bytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/[\s=]/g, '').toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
}

/** The code of a 30-second step (default: the current one) for a base32 secret. */
export function totpCode(secret: string, step = Math.floor(Date.now() / 30_000)): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

export const stepNow = () => Math.floor(Date.now() / 30_000);

/** The password step of the sign-in form. */
export async function enterPassword(page: Page, login: string, password: string) {
  await page.getByLabel('User name or email').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/**
 * The administrator's refresh token, taken before a policy that may catch them too (the
 * Administrator role holds every permission): rotating it needs no new sign-in, so the policy can
 * always be put back.
 */
export async function adminRefreshToken(request: APIRequestContext): Promise<string> {
  return (await apiSignIn(request)).refreshToken!;
}

/** Puts the Demo Company's two-step policy back to "nobody" (the specs share one running product). */
export async function requireNobody(request: APIRequestContext, refreshToken: string) {
  const rotated = await request.post(`${E2E.portalUrl}/api/accounts/rotate-token`, {
    data: { refreshToken },
  });
  expect(rotated.status()).toBe(200);
  const token = ((await rotated.json()) as { data: { accessToken: string } }).data.accessToken;
  const saved = await request.put(`${E2E.portalUrl}/api/security/mfa-policy`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { requireFor: 'nobody', permissionCodes: [] },
  });
  expect(saved.status()).toBe(200);
}
