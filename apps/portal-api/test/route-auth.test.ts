// Authentication is declared once per route group (issue #44): every route the OpenAPI document marks
// bearer-only answers 401 in the envelope without a token, before its parameters or body are read;
// the public routes, and those that also take an enrolment's `mfaToken`, are exactly the ones named here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

type Security = Record<string, string[]>[] | undefined;
interface Route {
  method: string;
  url: string;
  security: Security;
}

/** Every operation under /api of the portal's OpenAPI document, path parameters filled in. */
async function routes(): Promise<Route[]> {
  const answer = await t.app.inject({ url: '/api/docs/json' });
  const doc = answer.json() as { paths: Record<string, Record<string, { security?: Security }>> };
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        url: path.replace(/\{[^}]+\}/g, '01900000-0000-7000-8000-000000000000'),
        security: operation.security,
      })),
  );
}

const bearerOnly = (security: Security) =>
  (security ?? []).some((rule) => 'bearerAuth' in rule) &&
  !(security ?? []).some((rule) => Object.keys(rule).length === 0);

const PUBLIC = [
  'GET /api/.well-known/jwks.json',
  'GET /api/.well-known/revoked-sessions',
  'POST /api/accounts/sign-in',
  'POST /api/accounts/rotate-token',
  'POST /api/accounts/signout',
  'POST /api/accounts/forgot-password',
  'POST /api/accounts/reset-password',
  'POST /api/accounts/confirm-email-change',
  'POST /api/accounts/undo-email-change',
  'POST /api/accounts/sign-in/mfa',
  'POST /api/accounts/sign-in/mfa/passkey-options',
  'POST /api/accounts/sign-in/passkey/options',
  'POST /api/accounts/sign-in/passkey',
  'POST /api/users/invitations/accept',
  'POST /api/users/invitations/lookup',
];
/** A bearer token or, in a forced enrolment, the sign-in's `mfaToken` (routes/api/accounts/mfa-caller.ts). */
const EITHER = [
  'POST /api/accounts/mfa/totp/setup',
  'POST /api/accounts/mfa/totp/confirm',
  'POST /api/accounts/passkeys/options',
  'POST /api/accounts/passkeys',
];

describe('authentication of every portal route', () => {
  it('names its public routes, and those that also take an mfaToken, here', async () => {
    const all = await routes();
    const withoutBearer = all.filter((route) => !route.security?.length);
    const either = all.filter((route) => route.security?.length && !bearerOnly(route.security));
    const key = (route: Route) => `${route.method} ${route.url}`;
    expect(
      withoutBearer
        .map(key)
        .filter((k) => !/ \/api\/(live|ready|health|docs)/.test(k))
        .sort(),
    ).toEqual([...PUBLIC].sort());
    expect(either.map(key).sort()).toEqual([...EITHER].sort());
  });

  it('answers 401 in the envelope without a token on every bearer-only route', async () => {
    const guarded = (await routes()).filter((route) => bearerOnly(route.security));
    expect(guarded.length).toBeGreaterThan(30);
    const refused: string[] = [];
    for (const route of guarded) {
      const answer = await t.app.inject({
        method: route.method as 'GET',
        url: route.url,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      const body = answer.json() as { success?: boolean; status?: number };
      if (answer.statusCode !== 401 || body.success !== false || body.status !== 401)
        refused.push(`${route.method} ${route.url} answered ${answer.statusCode}`);
    }
    expect(refused).toEqual([]);
  });

  it('lets the public routes through without a token (their own checks answer)', async () => {
    const open = (await routes()).filter((route) =>
      PUBLIC.includes(`${route.method} ${route.url}`),
    );
    expect(open).toHaveLength(PUBLIC.length);
    for (const route of open) {
      const answer = await t.app.inject({
        method: route.method as 'GET',
        url: route.url,
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
      // Token rotation checks its refresh cookie itself: without one it answers its own 401.
      if (route.url === '/api/accounts/rotate-token')
        expect(answer.json()).toMatchObject({ status: 401, message: 'Token refresh failed' });
      else
        expect({ route: route.url, status: answer.statusCode }).not.toMatchObject({ status: 401 });
    }
  });
});
