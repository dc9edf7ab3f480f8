import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../src/db/schema';
import { buildTestApp, eventually, type TestApp } from './helper';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on a free loopback port that keeps what it receives. */
async function startSmtp(): Promise<{
  url: string;
  received: Received[];
  close: () => Promise<void>;
}> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('mail through SMTP when SMTP_URL is set', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Power Analyzer <no-reply@analyzer.test>' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('delivers the reset link to the SMTP server, and the link resets the password', async () => {
    const user = await t.createUser();
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/forgot-password',
      payload: { email: user.email },
    });
    expect(answer.statusCode).toBe(200);

    const mail = await eventually(() => smtp.received.find((m) => m.to.includes(user.email)));
    expect(mail.from).toBe('no-reply@analyzer.test');
    expect(mail.raw).toMatch(/^Subject: .+/m);
    // the text part may be quoted-printable: undo soft line breaks and =XX escapes
    const text = mail.raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const token = /http:\/\/web\.test\/auth\/reset-password\?token=([\w-]+)/.exec(text)?.[1];
    expect(token).toBeTruthy();

    const row = await eventually(async () => {
      const [found] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
      return found?.sentAt ? found : undefined;
    });
    expect(row.transport).toBe('smtp');
    expect(row.file).toBeNull();
    expect(row.error).toBeNull();
    expect(row.text).not.toContain(token);

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/reset-password',
      payload: { token, password: 'a passphrase sent by mail' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await t.signIn(user.userName, 'a passphrase sent by mail')).userName).toBe(
      user.userName,
    );
  });

  it('a mail server that is down changes nothing in the answer and is recorded as an error', async () => {
    const down = await startSmtp();
    await down.close(); // its port now refuses connections
    const app = await buildTestApp({ env: { SMTP_URL: down.url } });
    try {
      const user = await app.createUser();
      const known = await app.app.inject({
        method: 'POST',
        url: '/api/accounts/forgot-password',
        payload: { email: user.email },
      });
      const unknown = await app.app.inject({
        method: 'POST',
        url: '/api/accounts/forgot-password',
        payload: { email: 'nobody@nowhere.test' },
      });
      expect(known.statusCode).toBe(200);
      expect(known.json()).toEqual(unknown.json());
      const row = await eventually(async () => {
        const [found] = await app.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
        return found;
      });
      expect(row.transport).toBe('smtp');
      expect(row.sentAt).toBeNull();
      expect(row.error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await app.close();
    }
  });
});
