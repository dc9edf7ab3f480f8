import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyEmptyCluster } from '@pa/server-kit/testing/empty-pglite';
import { notPrivate } from '@pa/server-kit/testing/private-modes';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPILED } from './helper';

const appRoot = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-portal-cli-'));
const { DATABASE_URL: _ignored, DEMO_ADMIN_PASSWORD: _none, ...parentEnv } = process.env;
const env = {
  ...parentEnv,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  PORTAL_PORT: '0',
  WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  PUBLIC_URL: 'http://web.test',
};

/** Runs `node <argv>` in `cwd` to its end; resolves with its exit code and output. */
function runNode(
  argv: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The compiled admin command with `args`. */
const run = (args: string[]) => runNode([COMPILED.admin, ...args], appRoot);

/** Starts the real portal server; resolves with its output once it printed its sign-in details. */
function startServer(): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [COMPILED.server], {
    cwd: appRoot,
    env,
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer) => {
      output += c.toString();
      if (/sign in at|Sign in at/.test(output) && /password/.test(output)) {
        resolve({ child, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited ${code}:\n${output}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

const servers: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map(stop));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('first start and the admin command line', () => {
  it('prints the generated password once, creates companies idempotently through the running server (and refuses when it cannot ask it)', async () => {
    // Its database folder holds an empty cluster (no initdb): the start is still a first start.
    await copyEmptyCluster(path.join(dataDir, 'portal-db'));
    const first = await startServer();
    servers.push(first.child);
    const printed = first.output();
    expect(printed).toContain('Sign in at http://web.test/auth/signin');
    const password = /password:\s+(\S+)/.exec(printed)?.[1] ?? '';
    expect(password).toMatch(/^[\w-]{20}$/);
    const port = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(printed)?.[1];
    const signIn = await fetch(`http://127.0.0.1:${port}/api/accounts/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'admin', password }),
    });
    expect(signIn.status).toBe(200);

    const args = [
      'create-company',
      '--name',
      'Acme',
      '--admin-email',
      'boss@acme.test',
      '--admin-password',
      'acme boss passphrase',
    ];
    // While the portal runs, the command asks it through its admin socket: same messages, and the
    // new administrator signs in on the running portal at once.
    const socket = path.join(dataDir, 'run', 'portal.sock');
    expect(fs.statSync(socket).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(socket)).mode & 0o777).toBe(0o700);
    const created = await run(args);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/Company "Acme" created \(id [0-9a-f-]{36}\)/);
    expect(created.stdout).toContain('as boss (boss@acme.test)');
    const boss = await fetch(`http://127.0.0.1:${port}/api/accounts/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'boss@acme.test', password: 'acme boss passphrase' }),
    });
    expect(boss.status).toBe(200);
    const again = await run(args);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Company "Acme" already exists/);
    const taken = await run([...args.slice(0, 2), 'Other', ...args.slice(3)]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('email "boss@acme.test" is already used by another account.');

    // A portal that holds the folder but whose socket is gone: refused, never opened twice.
    fs.rmSync(socket);
    const refused = await run([...args.slice(0, 2), 'Third', ...args.slice(3)]);
    expect(refused.code).toBe(75);
    expect(refused.stderr).toContain(`in use by process ${first.child.pid}`);

    await stop(first.child);
    const stopped = await run(args);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/Company "Acme" already exists/);
    // It opened the folder itself: what PGlite rewrote there (0644) is the OS user's only again.
    expect(notPrivate(dataDir)).toEqual([]);
    const weak = await run([...args.slice(0, 5), '--admin-password', 'short']);
    expect(weak.code).toBe(64);
    expect(weak.stderr).toContain('--admin-password: Password must be at least 12 characters');

    // A restart keeps everything: no new password, and the CLI's company can sign in.
    const second = await startServer();
    servers.push(second.child);
    expect(second.output()).not.toMatch(/password:\s/);
    expect(second.output()).toContain('its password was printed on the first start');
    const port2 = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(second.output())?.[1];
    const acme = await fetch(`http://127.0.0.1:${port2}/api/accounts/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'boss@acme.test', password: 'acme boss passphrase' }),
    });
    expect(acme.status).toBe(200);
    expect(((await acme.json()) as { data: unknown }).data).toMatchObject({
      companyName: 'Acme',
      userName: 'boss',
    });
    const demo = await fetch(`http://127.0.0.1:${port2}/api/accounts/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'admin', password }),
    });
    expect(demo.status).toBe(200);
  }, 120_000);
});

describe('a company made before the first start', () => {
  it('does not stop the server from starting; no demo is made and the block says so', async () => {
    const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-portal-first-'));
    const ownEnv = { ...env, DATA_DIR: ownDir };
    await copyEmptyCluster(path.join(ownDir, 'portal-db'));
    const cli = spawn(
      process.execPath,
      [
        COMPILED.admin,
        'create-company',
        '--name',
        'Acme',
        '--admin-email',
        'a@acme.test',
        '--admin-username',
        'admin',
        '--admin-password',
        'acme admin passphrase',
      ],
      { cwd: appRoot, env: ownEnv },
    );
    expect(await new Promise((resolve) => cli.on('exit', resolve))).toBe(0);

    const server = spawn(process.execPath, [COMPILED.server], {
      cwd: appRoot,
      env: ownEnv,
    });
    servers.push(server);
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (c: Buffer) => {
        output += c.toString();
        if (output.includes('└')) resolve();
      };
      server.stdout.on('data', onData);
      server.stderr.on('data', onData);
      server.on('exit', (code) => reject(new Error(`server exited ${code}:\n${output}`)));
    });
    expect(output).toContain('No Demo Company was made: the database already holds companies.');
    expect(output).not.toContain('already used');
    const port = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(output)?.[1];
    const acme = await fetch(`http://127.0.0.1:${port}/api/accounts/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'admin', password: 'acme admin passphrase' }),
    });
    expect(acme.status).toBe(200);
    await stop(server);
    fs.rmSync(ownDir, { recursive: true, force: true });
  }, 120_000);
});

describe('npm run admin', () => {
  it('runs the compiled command: its usage for help, exit code 64 and the usage for an unknown command', async () => {
    // `node scripts/admin.mjs` is what `npm run admin` runs; the services are built (not stale)
    const launch = (args: string[]) =>
      runNode(['scripts/admin.mjs', ...args], path.resolve(appRoot, '../..'));
    const help = await launch(['help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('npm run admin -- create-company');
    const unknown = await launch(['no-such-command']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('Unknown command "no-such-command".');
  }, 60_000);
});
