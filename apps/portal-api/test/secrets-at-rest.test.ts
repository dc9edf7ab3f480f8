// Issue 39, finding 3: the data folder and backups are the service user's only, and a copy of the
// database or of a backup gives neither the token-signing key nor an authenticator app's secret
// (ADR 018).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { emptyPglite, copyEmptyCluster } from '@pa/server-kit/testing/empty-pglite';
import { notPrivate } from '@pa/server-kit/testing/private-modes';
import { eq } from 'drizzle-orm';
import * as tar from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPortalApp, type PortalApp } from '../src/app';
import { portalConfigSchema } from '../src/config';
import { openDatabase } from '../src/db/client';
import { totpFactors, users } from '../src/db/schema';
import { SecretBox } from '../src/modules/mfa/secret-box';
import { COMPILED, DATABASES, postgresDatabase } from './helper';
import { awayFromStepEdge, totp, stepNow } from './totp-codes';

const PASSWORD = 'secrets-at-rest-passphrase';
const temporary: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

/** The files under `root` whose bytes hold `needle`. */
function filesHolding(root: string, needle: string): string[] {
  const hits: string[] = [];
  for (const entry of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(root, entry);
    if (fs.lstatSync(file, { throwIfNoEntry: false })?.isFile() !== true) continue;
    const bytes = fs.readFileSync(file);
    if (bytes.includes(needle)) hits.push(entry);
    // a database dump inside the archive is itself a tar.gz: its files are searched too
    if (entry.endsWith('.gz') && gunzipSync(bytes).includes(needle))
      hits.push(`${entry} (unpacked)`);
  }
  return hits;
}

describe.each(DATABASES)('second-step secrets sealed in the database on %s (ADR 018)', (kind) => {
  /** The portal on a database of its own that outlives each app: a restart is a new app on it. */
  async function portal() {
    const dataDir = tempDir('pa-secrets-');
    const config = portalConfigSchema.parse({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      PUBLIC_URL: 'http://web.test',
      DEMO_ADMIN_PASSWORD: PASSWORD,
      ...(kind === 'postgres' ? { DATABASE_URL: await postgresDatabase() } : {}),
    });
    const database =
      kind === 'postgres'
        ? await openDatabase(config)
        : await openDatabase({ DATA_DIR: dataDir, pglite: await emptyPglite() });
    let app: PortalApp | undefined;
    let log = '';
    const start = async () => {
      await app?.close();
      log = '';
      const logStream = new Writable({
        write(chunk, _encoding, done) {
          log += String(chunk);
          done();
        },
      });
      app = await buildPortalApp(config, { database, logStream });
      await app.ready();
      return app;
    };
    return {
      config,
      db: database.db,
      start,
      log: () => log,
      app: () => {
        if (!app) throw new Error('not started');
        return app;
      },
      async close() {
        await app?.close();
        await database.close();
      },
    };
  }

  it('stores a new app’s secret sealed, signs in with it, seals a legacy plaintext secret at start, and treats one sealed under another key as no app', async () => {
    const p = await portal();
    try {
      const app = await p.start();
      const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
        p.app().inject({ method: 'POST', url, payload, headers });
      const signIn = () => post('/api/accounts/sign-in', { userName: 'admin', password: PASSWORD });
      const token = (await signIn()).json().data.accessToken as string;
      const headers = { authorization: `Bearer ${token}` };
      const setup = await post(
        '/api/accounts/mfa/totp/setup',
        { currentPassword: PASSWORD },
        headers,
      );
      expect(setup.statusCode).toBe(200);
      const secret = setup.json().data.secret as string;
      await awayFromStepEdge();
      const confirmedAt = stepNow();
      const confirm = await post(
        '/api/accounts/mfa/totp/confirm',
        { code: totp(secret, confirmedAt) },
        headers,
      );
      expect(confirm.statusCode).toBe(200);

      const [admin] = await p.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.userName, 'admin'));
      const rowOf = async () =>
        (await p.db.select().from(totpFactors).where(eq(totpFactors.userId, admin!.id)))[0]!;
      const stored = (await rowOf()).secret;
      expect(stored).not.toContain(secret);
      expect(stored.startsWith(`v1:${app.secretBox.keyId}:`)).toBe(true);
      expect(app.secretBox.open(stored, admin!.id)).toBe(secret);
      // bound to its row: the same value in another account's row does not open
      expect(app.secretBox.open(stored, '01900000-0000-7000-8000-000000000000')).toBeNull();

      const withCode = async (step: number) => {
        const first = await signIn();
        expect(first.json().data).toMatchObject({
          mfaRequired: true,
          methods: ['totp', 'recovery-code'],
        });
        return post('/api/accounts/sign-in/mfa', {
          mfaToken: first.json().data.mfaToken,
          code: totp(secret, step),
        });
      };
      expect((await withCode(confirmedAt + 1)).statusCode).toBe(200);

      // A row as versions before ADR 018 left it: the next start seals it, once, and it still signs in.
      await p.db
        .update(totpFactors)
        .set({ secret, lastStep: 0 })
        .where(eq(totpFactors.userId, admin!.id));
      await p.start();
      expect(p.log()).toContain('Sealed 1 authenticator-app secrets that were stored in the clear');
      const sealed = (await rowOf()).secret;
      expect(sealed).not.toContain(secret);
      expect(sealed.startsWith(`v1:${app.secretBox.keyId}:`)).toBe(true);
      await awayFromStepEdge();
      expect((await withCode(stepNow())).statusCode).toBe(200);
      await p.start();
      expect(p.log()).not.toContain('Sealed');
      expect((await rowOf()).secret).toBe(sealed);

      // Another secrets key (a restore without the kept keys/): logged, and the account counts as
      // having no app — the password signs in, and it sets up a new app.
      fs.writeFileSync(
        path.join(p.config.DATA_DIR, 'keys', 'secrets.key'),
        randomBytes(32).toString('base64'),
      );
      await p.start();
      expect(p.log()).toMatch(
        /"level":40.*1 authenticator-app secrets were sealed under another key/,
      );
      const plain = await signIn();
      expect(plain.statusCode).toBe(200);
      expect(plain.json().data.mfaRequired).toBeUndefined();
      const fresh = { authorization: `Bearer ${plain.json().data.accessToken as string}` };
      const status = await p.app().inject({ url: '/api/accounts/mfa', headers: fresh });
      expect(status.json().data).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
      const again = await post(
        '/api/accounts/mfa/totp/setup',
        { currentPassword: PASSWORD },
        fresh,
      );
      expect(again.statusCode).toBe(200);
      const newSecret = again.json().data.secret as string;
      await awayFromStepEdge();
      const reconfirm = await post(
        '/api/accounts/mfa/totp/confirm',
        { code: totp(newSecret, stepNow()) },
        fresh,
      );
      expect(reconfirm.statusCode).toBe(200);
      expect(new SecretBox(Buffer.alloc(32)).open((await rowOf()).secret, admin!.id)).toBeNull();
      expect(p.app().secretBox.open((await rowOf()).secret, admin!.id)).toBe(newSecret);
    } finally {
      await p.close();
    }
  });
});

describe('the data folder and backups of a running portal', () => {
  const appRoot = path.resolve(import.meta.dirname, '..');
  const { DATABASE_URL: _ignored, ...parentEnv } = process.env;
  const envFor = (dataDir: string) => ({
    ...parentEnv,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    PORTAL_PORT: '0',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    PUBLIC_URL: 'http://web.test',
    DEMO_ADMIN_PASSWORD: PASSWORD,
  });
  const children: ChildProcess[] = [];
  const stop = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  afterAll(async () => {
    await Promise.all(children.map(stop));
  });

  /** Starts the compiled portal; resolves once it printed its sign-in block, with its address. */
  function startServer(dataDir: string) {
    const child = spawn(process.execPath, [COMPILED.server], {
      cwd: appRoot,
      env: envFor(dataDir),
    });
    children.push(child);
    let output = '';
    return new Promise<{ child: ChildProcess; url: string; output: () => string }>(
      (resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const port = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(output)?.[1];
          if (port && output.includes('└'))
            resolve({ child, url: `http://127.0.0.1:${port}`, output: () => output });
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.on('exit', (code) => reject(new Error(`server exited ${code}:\n${output}`)));
      },
    );
  }
  const admin = (dataDir: string, args: string[]) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [COMPILED.admin, ...args], {
        cwd: appRoot,
        env: envFor(dataDir),
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output }));
    });
  const call = async (url: string, body: object, token?: string) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      data: ((await response.json()) as { data: Record<string, unknown> }).data,
    };
  };

  it('repairs an existing folder’s modes at start, writes backups 0600 without the keys, and no secret reaches the disk', async () => {
    // An existing data folder as an older version left it: open to every local user.
    const dataDir = tempDir('pa-modes-');
    await copyEmptyCluster(path.join(dataDir, 'portal-db'));
    fs.mkdirSync(path.join(dataDir, 'outbox'));
    fs.writeFileSync(path.join(dataDir, 'outbox', 'reset.eml'), 'a reset link');
    fs.chmodSync(path.join(dataDir, 'outbox', 'reset.eml'), 0o644);
    fs.chmodSync(path.join(dataDir, 'outbox'), 0o755);
    fs.chmodSync(dataDir, 0o755);

    const first = await startServer(dataDir);
    const repairLines = first
      .output()
      .split('\n')
      .filter((line) => line.includes('modes repaired'));
    expect(repairLines).toHaveLength(1);
    expect(JSON.parse(repairLines[0]!)).toMatchObject({ level: 30, repaired: expect.any(Number) });
    expect(JSON.parse(repairLines[0]!).repaired).toBeGreaterThanOrEqual(3);
    expect(notPrivate(dataDir)).toEqual([]);
    expect(fs.readdirSync(dataDir, { recursive: true }).length).toBeGreaterThan(900);

    // An authenticator app for the administrator.
    const signedIn = await call(`${first.url}/api/accounts/sign-in`, {
      userName: 'admin',
      password: PASSWORD,
    });
    const token = signedIn.data.accessToken as string;
    const setup = await call(
      `${first.url}/api/accounts/mfa/totp/setup`,
      { currentPassword: PASSWORD },
      token,
    );
    const secret = setup.data.secret as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await awayFromStepEdge();
    const confirmedAt = stepNow();
    const confirm = await call(
      `${first.url}/api/accounts/mfa/totp/confirm`,
      { code: totp(secret, confirmedAt) },
      token,
    );
    expect(confirm.status).toBe(200);

    // Backups while it runs: 0600, no keys unless asked, no secret inside.
    const backups = tempDir('pa-backups-');
    const archive = path.join(backups, 'plain.tar.gz');
    const saved = await admin(dataDir, ['backup', '--out', archive]);
    expect(saved.code, saved.output).toBe(0);
    expect(saved.output).toContain('It holds no keys');
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    const entries: string[] = [];
    await tar.list({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
    expect(entries).toContain('portal-db.tar.gz');
    expect(entries.filter((entry) => entry.startsWith('keys'))).toEqual([]);
    const unpacked = tempDir('pa-unpacked-');
    await tar.extract({ file: archive, cwd: unpacked });
    expect(filesHolding(unpacked, secret)).toEqual([]);
    // the search does see what the database holds in the clear
    expect(filesHolding(unpacked, 'admin@demo.local')).toContain('portal-db.tar.gz (unpacked)');

    const full = path.join(backups, 'full.tar.gz');
    const savedFull = await admin(dataDir, ['backup', '--out', full, '--include-keys']);
    expect(savedFull.code, savedFull.output).toBe(0);
    expect(fs.statSync(full).mode & 0o777).toBe(0o600);
    const fullEntries: string[] = [];
    await tar.list({ file: full, onReadEntry: (entry) => fullEntries.push(entry.path) });
    expect(fullEntries).toEqual(
      expect.arrayContaining(['keys/portal-signing-key.json', 'keys/secrets.key']),
    );

    // Stopped (PGlite checkpoints on close): no file of the folder, WAL included, holds the secret.
    await stop(first.child);
    expect(filesHolding(dataDir, secret)).toEqual([]);
    expect(filesHolding(dataDir, 'admin@demo.local').length).toBeGreaterThan(0);
    expect(notPrivate(dataDir)).toEqual([]);

    // A restart: nothing to repair, and the app's codes still sign in.
    const second = await startServer(dataDir);
    expect(second.output()).not.toContain('modes repaired');
    const password = await call(`${second.url}/api/accounts/sign-in`, {
      userName: 'admin',
      password: PASSWORD,
    });
    expect(password.data).toMatchObject({ mfaRequired: true });
    const code = totp(secret, Math.max(stepNow(), confirmedAt + 1));
    const mfa = await call(`${second.url}/api/accounts/sign-in/mfa`, {
      mfaToken: password.data.mfaToken,
      code,
    });
    expect(mfa.status).toBe(200);
    expect(mfa.data.accessToken).toEqual(expect.any(String));
    await stop(second.child);

    // The restore drill without the kept keys: a new key set, the app counts as off, the password
    // signs in; everything restored is the user's only.
    const restoredDir = path.join(tempDir('pa-restored-'), 'data');
    const restored = await admin(restoredDir, ['restore', '--in', archive]);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toContain('The archive holds no keys');
    expect(notPrivate(restoredDir)).toEqual([]);
    const third = await startServer(restoredDir);
    expect(third.output()).toContain('1 authenticator-app secrets were sealed under another key');
    const passwordOnly = await call(`${third.url}/api/accounts/sign-in`, {
      userName: 'admin',
      password: PASSWORD,
    });
    expect(passwordOnly.status).toBe(200);
    expect(passwordOnly.data.accessToken).toEqual(expect.any(String));
    await stop(third.child);
  }, 180_000);
});
