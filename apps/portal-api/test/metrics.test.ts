// GET /metrics: Prometheus text a scraper parses: request durations by route pattern, sign-ins by
// outcome, rate-limit refusals; no id in any label.
import { parseMetrics, valueOf } from '@pa/server-kit/testing/prometheus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, type TestApp } from './helper';

describe('GET /metrics on the portal', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SIGNIN_RATE_LIMIT_ACCOUNT: '2' } });
  }, 60_000);
  afterAll(() => t?.close());

  const signIn = (password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      payload: { userName: 'admin', password },
      remoteAddress: '10.7.0.1',
    });

  it('counts sign-ins by outcome, refusals and request durations by route pattern', async () => {
    expect((await signIn(ADMIN_PASSWORD)).statusCode).toBe(200);
    expect((await signIn('wrong-password-x')).statusCode).toBe(401);
    expect((await signIn('wrong-password-x')).statusCode).toBe(401);
    expect((await signIn('wrong-password-x')).statusCode).toBe(429);
    const userId = t.company.adminId;
    const user = await t.app.inject({
      url: `/api/users/${userId}`,
      headers: await t.authHeader(),
    });
    expect(user.statusCode).toBe(200);

    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    const metrics = parseMetrics(res.body);
    expect(valueOf(metrics, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(metrics, 'portal_sign_ins_total', { outcome: 'success' })).toBe(1);
    expect(valueOf(metrics, 'portal_sign_ins_total', { outcome: 'failure' })).toBe(2);
    expect(valueOf(metrics, 'portal_sign_ins_total', { outcome: 'rate_limited' })).toBe(1);
    expect(
      valueOf(metrics, 'http_rate_limit_refusals_total', { route: '/api/accounts/sign-in' }),
    ).toBe(1);
    const count = 'http_request_duration_seconds_count';
    const signIns = { route: '/api/accounts/sign-in', method: 'POST', service: 'portal-api' };
    expect(
      valueOf(metrics, 'http_request_duration_seconds', { ...signIns, status_code: '401' }, count),
    ).toBe(2);
    // the pattern, never the path with the user's id
    const routes = metrics.get('http_request_duration_seconds')!.samples.map((s) => s.labels.route);
    expect(routes).toContain('/api/users/:id');
    expect(routes.some((route) => route?.includes(userId))).toBe(false);
  });

  it('answers 404 (the envelope, not the web app) with METRICS=false', async () => {
    const off = await buildTestApp({ env: { METRICS: 'false' } });
    try {
      const res = await off.app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    } finally {
      await off.close();
    }
  });
});
