import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The browser suite runs the real services (`npm start`'s script) on their own ports and a fresh data
// folder. Workers inherit the environment, so every worker sees the same folder (the mail outbox) and
// the same ports.
const repoRoot = path.resolve(import.meta.dirname, '../..');
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'pa-e2e-'));

/**
 * A free pair of consecutive ports (portal P, Power 7 P + 1 — the web app derives the Power 7 address
 * that way), so several runs on one machine (engineers, a CI clone) never collide.
 */
function freePortPair(): number {
  const probe = `
    const net = require('node:net');
    const free = (p) => new Promise((ok) => {
      const s = net.createServer().once('error', () => ok(false))
        .once('listening', () => s.close(() => ok(true))).listen(p, '127.0.0.1');
    });
    (async () => {
      for (let i = 0; i < 50; i++) {
        const p = 20000 + 2 * Math.floor(Math.random() * 10000);
        if ((await free(p)) && (await free(p + 1))) { process.stdout.write(String(p)); return; }
      }
      process.exit(1);
    })();`;
  const out = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error('No free port pair for the browser suite.');
  return Number(out.stdout);
}
process.env.E2E_PORTAL_PORT ??= String(freePortPair());
const portalPort = Number(process.env.E2E_PORTAL_PORT);

export const E2E = {
  portalUrl: `http://127.0.0.1:${portalPort}`,
  power7Url: `http://127.0.0.1:${portalPort + 1}`,
  dataDir: process.env.E2E_DATA_DIR,
  adminPassword: 'e2e-demo-admin-passphrase',
  accessTokenTtl: 20,
  screenshotsDir: path.join(repoRoot, 'artifacts/screenshots'),
};

export default defineConfig({
  testDir: './e2e',
  // Playwright empties its output folder at start; one per run keeps concurrent runs apart.
  outputDir: path.join(repoRoot, 'test-results', `e2e-${portalPort}`),
  fullyParallel: false,
  workers: 1,
  // No retries: a test that fails once is a defect to find (the last silent sign-out, a rotation
  // answer cut off by a navigation, hid behind a retry; ADR 006).
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: E2E.portalUrl,
    trace: 'retain-on-failure',
    // A wait for an element that never comes fails in seconds, not at the end of a long test's budget.
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    cwd: repoRoot,
    url: `${E2E.portalUrl}/api/ready/`,
    // Both services start through tsx; at load ~15 that alone took 90 s.
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORTAL_PORT: String(portalPort),
      POWER7_PORT: String(portalPort + 1),
      DATA_DIR: E2E.dataDir,
      PUBLIC_URL: E2E.portalUrl,
      CORS_ORIGINS: E2E.portalUrl,
      DEMO_ADMIN_PASSWORD: E2E.adminPassword,
      // Short-lived access tokens, so the suite sees expiry and refresh happen for real.
      ACCESS_TOKEN_TTL: String(E2E.accessTokenTtl),
      // The suite signs in more often than a person would; the limit itself is tested by the portal.
      SIGNIN_RATE_LIMIT_IP: '200',
      LOG_LEVEL: 'warn',
      SKIP_WEB_BUILD: '1',
    },
  },
});
