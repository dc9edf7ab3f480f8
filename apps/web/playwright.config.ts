import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The browser suite runs the real services (`npm start`'s script) on their own ports and a fresh data
// folder. Workers inherit the environment, so every worker sees the same folder (the mail outbox).
const repoRoot = path.resolve(import.meta.dirname, '../..');
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'pa-e2e-'));
export const E2E = {
  portalUrl: 'http://127.0.0.1:18000',
  power7Url: 'http://127.0.0.1:18001',
  dataDir: process.env.E2E_DATA_DIR,
  adminPassword: 'e2e-demo-admin-passphrase',
  accessTokenTtl: 20,
  screenshotsDir: path.join(repoRoot, 'artifacts/screenshots'),
};

export default defineConfig({
  testDir: './e2e',
  outputDir: path.join(repoRoot, 'test-results'),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: E2E.portalUrl,
    trace: 'retain-on-failure',
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
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORTAL_PORT: '18000',
      POWER7_PORT: '18001',
      DATA_DIR: E2E.dataDir,
      PUBLIC_URL: 'http://127.0.0.1:18000',
      CORS_ORIGINS: 'http://127.0.0.1:18000',
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
