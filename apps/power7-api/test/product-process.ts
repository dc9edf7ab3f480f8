import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { copyEmptyCluster } from '@pa/server-kit/testing/empty-pglite';
import { freePort } from '@pa/server-kit/testing/postgres-server';
import { expect } from 'vitest';

export const repoRoot = resolve(import.meta.dirname, '../../..');

/**
 * The compiled services and CLI (scripts/build-services.mjs) that `npm start` and `npm run power7`
 * run: the process tests start these, not the sources through tsx (a service's start costs ~2 CPU-s
 * less, a worker thread's ~0.3). Vitest's global set-up builds them when stale (vitest.config.ts).
 */
export const COMPILED = {
  portal: resolve(repoRoot, 'apps/portal-api/dist/server.mjs'),
  admin: resolve(repoRoot, 'apps/portal-api/dist/admin.mjs'),
  power7: resolve(repoRoot, 'apps/power7-api/dist/server.mjs'),
  cli: resolve(repoRoot, 'packages/power7-engine/dist/cli.mjs'),
};

/** The admin's password of every product a test starts. */
export const ADMIN_PASSWORD = 'product-process-passphrase';

/** The services' database folders in a DATA_DIR (PGlite). */
export type DatabaseFolder = 'portal-db' | 'power7-db';

/**
 * Puts a copy of the run's empty PGlite cluster (test/global-setup.ts) where a service started on
 * `dataDir` opens its database, unless one is there: the service then starts as on its first start
 * (migrations, the demo's seed) without PGlite's initdb, ~5 CPU-s a database. The initdb itself stays
 * tested by the start-script test (`fresh`), the browser suite's products and `npm start`.
 * P7_FRESH_PGLITE=1 leaves every folder to the service, as before.
 */
export async function withEmptyDatabases(dataDir: string, folders: DatabaseFolder[]) {
  if (process.env.P7_FRESH_PGLITE) return;
  for (const folder of folders) await copyEmptyCluster(join(dataDir, folder));
}

/**
 * The product as `npm start` runs it (scripts/start.mjs, compiled services) on free ports; its
 * databases start from the run's empty cluster unless `fresh` asks the services to create them.
 */
export async function startProduct(
  dataDir: string,
  env: Record<string, string> = {},
  { fresh = false } = {},
) {
  if (!fresh) await withEmptyDatabases(dataDir, ['portal-db', 'power7-db']);
  const [portalPort, power7Port] = [await freePort(), await freePort()];
  const starter = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      SKIP_WEB_BUILD: '1',
      DATA_DIR: dataDir,
      PORTAL_PORT: String(portalPort),
      POWER7_PORT: String(power7Port),
      LOG_LEVEL: 'warn',
      DEMO_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  starter.stdout.on('data', (chunk) => (output += chunk));
  starter.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => starter.once('exit', done));
  const product = {
    portal: `http://127.0.0.1:${portalPort}`,
    power7: `http://127.0.0.1:${power7Port}`,
    exited,
    output: () => output,
    /** Waits until the starter printed `text` (or exited). */
    async printed(text: string) {
      for (let i = 0; i < 3600 && !output.includes(text); i++) {
        if (starter.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(output).toContain(text);
    },
    /** The pid of the starter's child running `entry` (e.g. power7-api/dist/server.mjs). */
    childRunning(entry: string): number {
      for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          if (ppid === starter.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(entry))
            return Number(pid);
        } catch {
          // gone meanwhile
        }
      }
      throw new Error(`no child running ${entry}`);
    },
    /** Ctrl+C: stops both services. */
    async stop() {
      if (starter.exitCode === null && starter.signalCode === null) starter.kill('SIGINT');
      return exited;
    },
    async signIn() {
      const response = await fetch(`${product.portal}/api/accounts/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userName: 'admin', password: ADMIN_PASSWORD }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: { accessToken: string } }).data.accessToken;
    },
  };
  await product.printed('Power Analyzer is ready.');
  return product;
}

/** `npm run admin -- …` (compiled), with DATA_DIR; resolves with its exit code and output. */
export function runAdmin(dataDir: string, args: string[]) {
  return new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn(process.execPath, [COMPILED.admin, ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => done({ code, output }));
  });
}
