import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { hashPassword } from '../src/modules/accounts/passwords';
import { buildTestApp, eventually, type TestApp } from './helper';

// The log is read by more people than the database: no line may carry a password, a hash or a token.
describe('secrets in the log', () => {
  let t: TestApp;
  const lines: string[] = [];
  const secretHash = hashPassword('the-secret-passphrase');
  beforeAll(async () => {
    t = await buildTestApp({
      env: { LOG_LEVEL: 'info' },
      logStream: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
      routes: (app) => {
        // A write the database refuses (no such company), carrying a password hash in its parameters.
        app.post('/test/failing-write', async () => {
          await app.db.insert(users).values({
            companyId: '01900000-0000-7000-8000-000000000000',
            userName: 'doomed',
            email: 'doomed@example.test',
            userFirstName: 'Doomed',
            userLastName: 'User',
            passwordHash: await secretHash,
          });
          return { ok: true };
        });
      },
    });
  }, 60_000);
  afterAll(() => t?.close());

  it('logs a failed write without its parameters', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/test/failing-write',
      payload: { password: 'the-secret-passphrase' },
    });
    expect(response.statusCode).toBe(500);
    const failure = await eventually(() => lines.find((line) => line.includes('request failed')));
    // The failure is logged (with the statement, to find the bug) ...
    expect(failure).toContain('insert into');
    // ... but not the values bound to it.
    const log = lines.join('');
    const hash = await secretHash;
    expect(log).not.toContain(hash);
    expect(log).not.toContain(hash.split('$').at(-1));
    expect(log).not.toContain('the-secret-passphrase');
    expect(log).not.toContain('doomed@example.test');
  });

  it('logs no token from a URL, and no credential from a sign-in', async () => {
    await t.app.inject({ url: '/auth/reset-password?token=reset-secret-in-url&x=1' });
    await t.app.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      headers: { authorization: 'Bearer access-secret', cookie: 'refreshToken=refresh-secret' },
      payload: { userName: 'admin', password: 'password-secret' },
    });
    const log = lines.join('');
    expect(log).toContain('/auth/reset-password?token=[redacted]&x=1');
    for (const secret of [
      'reset-secret-in-url',
      'access-secret',
      'refresh-secret',
      'password-secret',
    ])
      expect(log).not.toContain(secret);
  });

  it('keeps the revoked-sessions poll (every 2 s from Power 7) out of the request log', async () => {
    const before = lines.length;
    expect((await t.app.inject({ url: '/api/.well-known/revoked-sessions' })).statusCode).toBe(200);
    // any other request is logged (the probes, /api/live/ and such, are at debug: logger.test.ts)
    expect((await t.app.inject({ url: '/api/no-such-route/' })).statusCode).toBe(404);
    const logged = lines.slice(before).join('');
    expect(logged).toContain('/api/no-such-route/');
    expect(logged).not.toContain('revoked-sessions');
  });
});
