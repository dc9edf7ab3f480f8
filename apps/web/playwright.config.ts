import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The browser suite runs the real product (`npm start`'s script) on its own ports and fresh data
// folders: one product per Playwright worker, so spec files run in parallel without sharing an
// administrator, sign-in limits or an outbox. The runner and its workers load this file with the same
// environment; a worker finds its product by its parallel index.
const repoRoot = path.resolve(import.meta.dirname, '../..');
/** Whether this process is the runner, which makes the run's data folder (its workers inherit it). */
const isRunner = !process.env.E2E_DATA_DIR;
if (isRunner) {
  const madeHere = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-e2e-'));
  process.env.E2E_DATA_DIR = madeHere;
  // The products' data is ~300 MB each and every run used to leave it in the temporary folder:
  // removed once the runner has stopped them.
  process.on('exit', () => fs.rmSync(madeHere, { recursive: true, force: true }));
}

/** Products (and workers) of one run: two keep both cores busy while a browser waits on a service. */
const instances = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

/**
 * The first of 2 × `instances` free consecutive ports (product i: portal P + 2i, Power 7 P + 2i + 1 —
 * the web app derives the Power 7 address that way), so several runs on one machine never collide.
 * Below Linux's ephemeral range (32768+): `npm start` polls a port before its service listens, and a
 * poll from an ephemeral port equal to its target connects to itself and holds the port (seen in CI
 * as EADDRINUSE on start).
 */
function freePortBlock(): number {
  const probe = `
    const net = require('node:net');
    const free = (p) => new Promise((ok) => {
      const s = net.createServer().once('error', () => ok(false))
        .once('listening', () => s.close(() => ok(true))).listen(p, '127.0.0.1');
    });
    (async () => {
      for (let i = 0; i < 50; i++) {
        const p = 20000 + 2 * Math.floor(Math.random() * 6000);
        let all = true;
        for (let q = p; all && q < p + ${2 * instances}; q++) all = await free(q);
        if (all) { process.stdout.write(String(p)); return; }
      }
      process.exit(1);
    })();`;
  const out = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error('No free ports for the browser suite.');
  return Number(out.stdout);
}
process.env.E2E_PORTAL_PORT ??= String(freePortBlock());
const firstPort = Number(process.env.E2E_PORTAL_PORT);

function product(index: number) {
  const portalPort = firstPort + 2 * index;
  return {
    portalPort,
    // The address `npm start` prints (ADR 023): passkeys work there; a page asked at 127.0.0.1
    // moves to it. The APIs answer at either name.
    portalUrl: `http://localhost:${portalPort}`,
    power7Url: `http://127.0.0.1:${portalPort + 1}`,
    dataDir: path.join(process.env.E2E_DATA_DIR!, `product-${index}`),
  };
}

/**
 * Each product's two embedded databases start as a copy of one empty PGlite cluster made here, so
 * the products' first start runs migrations and the demo's seed but not PGlite's initdb four times
 * over (~5.5 CPU-s each, all at the browser stage's start while no test can run yet; the Vitest
 * process tests do the same through `copyEmptyCluster`). Only the runner makes them, once, before
 * it starts the products; the folder names are the services' (`${DATA_DIR}/portal-db`, `power7-db`).
 */
function copyEmptyDatabases() {
  // `npm run validate` made one for the whole run (`npm run pglite:empty`): copied, no initdb here
  const given = process.env.PA_EMPTY_PGLITE;
  const cluster =
    given && fs.existsSync(path.join(given, 'PG_VERSION')) ? given : makeEmptyCluster();
  for (let index = 0; index < instances; index++) {
    for (const db of ['portal-db', 'power7-db']) {
      fs.cpSync(cluster, path.join(product(index).dataDir, db), { recursive: true });
    }
  }
}

function makeEmptyCluster(): string {
  const cluster = path.join(process.env.E2E_DATA_DIR!, 'empty-cluster');
  const made = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { PGlite } = await import('@electric-sql/pglite');
       await (await PGlite.create({ dataDir: process.argv[1] })).close();`,
      cluster,
    ],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`No empty database for the browser suite: ${made.stderr}`);
  return cluster;
}
if (isRunner) copyEmptyDatabases();

/** The product of this worker (the runner itself, which has no index, describes product 0). */
const mine = product(Number(process.env.TEST_PARALLEL_INDEX ?? 0) % instances);

export const E2E = {
  portalUrl: mine.portalUrl,
  power7Url: mine.power7Url,
  dataDir: mine.dataDir,
  adminPassword: 'e2e-demo-admin-passphrase',
  /**
   * Access tokens of a minute: past the app's 30 s refresh margin (`TOKEN_EXPIRY_MARGIN_SECONDS`), so
   * calls go out on a fresh token and a test that runs on sees its token rotated. The 10 s (earlier
   * 20 s) tokens were "about to expire" for the app from their first second: every call rotated first,
   * and no test saw a call on a fresh token. The session spec moves the browser's clock past a
   * token's expiry rather than waiting for it (docs/benchmarks/test-suite.md, session 27).
   */
  accessTokenTtl: 60,
  screenshotsDir: path.join(repoRoot, 'artifacts/screenshots'),
  /**
   * Whether the specs save their screenshots (every screen at 1280 and 360 px, light and dark) for a
   * person to look at: `npm run test:screens`. Off in `npm test`, where nobody opens them: a shot
   * asserts nothing, and the full-page shots with the reloads they need took ~1/5 of the browser run.
   */
  screenshots: process.env.E2E_SCREENSHOTS === '1',
};

/**
 * Chromium features the suite turns off. Chromium 156 starts two renderers of its own per window (the
 * address bar's WebUI pop-ups, `chrome://omnibox-popup.top-chrome/`) and keeps a spare renderer ready
 * for the next navigation: with a window per test context, 82 WebUI renderers took 50 CPU-s of a
 * browser run and the spares their start-up each time, for nothing a headless test uses (the browser
 * stage's Chromium CPU 13 % lower, docs/benchmarks/test-suite.md, session 21). One
 * `--disable-features` switch wins over another, so the list repeats Playwright's own defaults
 * (playwright-core's chromium switches, 1.65), which it would otherwise replace.
 */
const disabledFeatures = [
  ...['AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades'],
  ...['HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding'],
  ...['ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect'],
  ...['TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled'],
  ...['PreconnectToSearch', 'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion'],
  // this suite's
  ...['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'],
];

export default defineConfig({
  testDir: './e2e',
  // Playwright empties its output folder at start; one per run keeps concurrent runs apart.
  outputDir: path.join(repoRoot, 'test-results', `e2e-${firstPort}`),
  // Spec files run in parallel, each worker on its own product; the tests of one file run in order.
  fullyParallel: false,
  workers: instances,
  // No retries: a test that fails once is a defect to find (the last silent sign-out, a rotation
  // answer cut off by a navigation, hid behind a retry; ADR 006).
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  // Two products, two browsers and other work share 2 cores: an element can take over Playwright's
  // 5 s default to appear while the machine is busy (seen at load ~20), so waits get 15 s.
  expect: { timeout: 15_000 },
  // the page's ARIA snapshot is printed with a failure: a CI run keeps only its log
  reporter: [['list'], ['./e2e/failure-context-reporter.ts']],
  use: {
    baseURL: E2E.portalUrl,
    // No trace by default: recording one (DOM snapshots and a screencast of every action) made the
    // browser tests ~25 % slower, and a CI run keeps only its log. To look into a failure, run the
    // spec again with `--trace retain-on-failure` (README, "Test it").
    trace: 'off',
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
          // Debian's Chromium headless shell: Blink and V8 without the full browser's UI layers,
          // ~14 % less Chromium CPU on the same specs (docs/benchmarks/test-suite.md, session 22).
          // E2E_CHROMIUM=/usr/bin/chromium runs the suite on the full browser.
          executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium-headless-shell',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
            `--disable-features=${disabledFeatures.join(',')}`,
          ],
        },
      },
    },
  ],
  webServer: Array.from({ length: instances }, (_, index) => {
    const { portalPort, portalUrl, dataDir } = product(index);
    return {
      command: 'node scripts/start.mjs',
      cwd: repoRoot,
      url: `http://127.0.0.1:${portalPort}/api/ready/`,
      // The compiled services open their databases first; at load ~15 a start took 90 s (ADR 009).
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: {
        PORTAL_PORT: String(portalPort),
        POWER7_PORT: String(portalPort + 1),
        DATA_DIR: dataDir,
        PUBLIC_URL: portalUrl,
        CORS_ORIGINS: portalUrl,
        DEMO_ADMIN_PASSWORD: E2E.adminPassword,
        // Short-lived access tokens (`E2E.accessTokenTtl`), so tests see tokens age and rotate.
        ACCESS_TOKEN_TTL: String(E2E.accessTokenTtl),
        // The suite signs in more often than a person would; the limit itself is tested by the portal.
        SIGNIN_RATE_LIMIT_IP: '200',
        // Every liability-limit run answers as a job (202, then its address polled), the path a
        // long run on a big file takes; the suite's files are small enough to answer within 1 s.
        LIMIT_WAIT_MS: '0',
        LOG_LEVEL: 'warn',
        SKIP_WEB_BUILD: '1',
      },
    };
  }),
});
