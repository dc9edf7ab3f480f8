#!/usr/bin/env node
// `npm start`: builds the web app and the services when their builds are missing or older than their
// sources, then runs the portal (web app + portal API) and the Power 7 API side by side, compiled, on
// the embedded defaults.
// A service that dies once ready is restarted (with back-off and a limit: launch() below); one that
// cannot start stops the other, so a failure is never half-hidden.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildServices, newestMtime, servicesStale } from './build-services.mjs';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');

const builtAt = newestMtime(path.join(web, 'dist/index.html'));
const sourcesAt = Math.max(
  ...['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) =>
    newestMtime(path.join(web, p)),
  ),
  newestMtime(path.join(root, 'packages/contracts/src')),
);
if (!process.env.SKIP_WEB_BUILD && builtAt < sourcesAt) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@pa/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (servicesStale()) {
  const ms = await buildServices();
  console.log(`Built the services in ${Math.round(ms)} ms.`);
}

const services = [
  ['portal', 'apps/portal-api/dist/server.mjs', process.env.PORTAL_PORT ?? 8000],
  ['power7', 'apps/power7-api/dist/server.mjs', process.env.POWER7_PORT ?? 8001],
];
// The web app looks for the Power 7 API one port above the page's (and the portal's CSP allows that
// address) unless POWER7_PUBLIC_URL says otherwise: a PORTAL_PORT changed alone would leave the
// browser knocking on the wrong port, so say so before anything starts.
{
  const [portal, power7] = services.map(([, , port]) => Number(port));
  if (portal !== 0 && power7 !== portal + 1 && !process.env.POWER7_PUBLIC_URL) {
    console.warn(
      `Note: the web app will look for the Power 7 API on port ${portal + 1} (PORTAL_PORT + 1), but ` +
        `POWER7_PORT is ${power7}. Set POWER7_PORT=${portal + 1} (or build the web app with ` +
        'VITE_POWER7_API_URL and set POWER7_PUBLIC_URL to that address).',
    );
  }
}
/** Restarts of one service allowed within RESTART_WINDOW_MS before everything stops. */
const RESTART_LIMIT = Number(process.env.RESTART_LIMIT ?? 5);
if (!Number.isInteger(RESTART_LIMIT) || RESTART_LIMIT < 0) {
  console.error('RESTART_LIMIT must be a whole number of restarts (0 = never restart).');
  process.exit(1);
}
const RESTART_WINDOW_MS = 60_000;
let stopping = false;
let signInDetails = '';
const children = new Map();
const restartTimes = new Map(services.map(([name]) => [name, []]));
const everReady = new Set();

/**
 * Starts one service. A service that dies once it was ready (a kill -9, out of memory) is started
 * again after 1, 2, 4… s; past RESTART_LIMIT restarts within a minute, or when it dies before it was
 * ever ready (a bad setting, a port in use: another try would fail the same way), everything stops.
 */
function launch([name, entry, port]) {
  // (Each service asks V8 for baseline WebAssembly code itself: `preferBaselineWasm` in server-kit.)
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, entry)], {
    cwd: root,
    // The IPC channel carries the portal's sign-in details (printed below once all is ready).
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: process.env,
  });
  children.set(name, child);
  child.on('message', (message) => {
    if (message?.type === 'sign-in-details') signInDetails = String(message.text);
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    const how = signal ?? `exit code ${code}`;
    if (!everReady.has(name)) {
      console.error(`${name} service stopped while starting (${how}); stopping the others.`);
      return stop(code || 1);
    }
    const now = Date.now();
    const recent = restartTimes.get(name).filter((at) => now - at < RESTART_WINDOW_MS);
    if (recent.length >= RESTART_LIMIT) {
      console.error(
        `${name} service stopped (${how}) after ${recent.length} restarts within ${RESTART_WINDOW_MS / 1000} s; giving up and stopping everything. Its log above says why.`,
      );
      return stop(code || 1);
    }
    const delay = 1000 * 2 ** recent.length;
    restartTimes.set(name, [...recent, now]);
    console.error(
      `${name} service stopped (${how}); restarting it in ${delay / 1000} s (restart ${recent.length + 1} of ${RESTART_LIMIT} allowed within ${RESTART_WINDOW_MS / 1000} s).`,
    );
    setTimeout(() => {
      if (stopping) return;
      launch([name, entry, port]);
      void ready(port).then(() => {
        if (!stopping) console.log(`${name} service restarted and ready.`);
      });
    }, delay);
  });
}
for (const service of services) launch(service);

/** Polls a service's readiness check until it answers 200 (or the starter is stopping). */
async function ready(port) {
  const host = process.env.HOST ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/api/ready/`;
  while (!stopping) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    // often: the sign-in details are printed as soon as both answer (a poll costs well under 1 ms)
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The sign-in details come last, as one block, when both services answer: not lost among start-up logs.
Promise.all(services.map(([name, , port]) => ready(port).then(() => everReady.add(name)))).then(
  async () => {
    while (!signInDetails && !stopping) await new Promise((r) => setTimeout(r, 100));
    if (!stopping) console.log(`\nPower Analyzer is ready.${signInDetails}`);
  },
);

function stop(code) {
  stopping = true;
  // a child killed by a signal has no exit code, only a signal code
  const all = [...children.values()].filter((c) => c.exitCode === null && c.signalCode === null);
  for (const child of all) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 5000).unref();
  Promise.all(all.map((child) => new Promise((r) => child.once('exit', r)))).then(() =>
    process.exit(code),
  );
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
