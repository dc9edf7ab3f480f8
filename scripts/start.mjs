#!/usr/bin/env node
// `npm start`: builds the web app and the services when their builds are missing or older than their
// sources, then runs the portal (web app + portal API) and the Power 7 API side by side, compiled, on
// the embedded defaults.
// Either service stopping stops the other, so a failure is never half-hidden.
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
  ['portal', 'apps/portal-api/dist/server.mjs'],
  ['power7', 'apps/power7-api/dist/server.mjs'],
];
let stopping = false;
let signInDetails = '';
const children = services.map(([name, entry]) => {
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, entry)], {
    cwd: root,
    // The IPC channel carries the portal's sign-in details (printed below once all is ready).
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: process.env,
  });
  child.on('message', (message) => {
    if (message?.type === 'sign-in-details') signInDetails = String(message.text);
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(
      `${name} service stopped (${signal ?? `exit code ${code}`}); stopping the others.`,
    );
    stop(code || 1);
  });
  return child;
});

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
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// The sign-in details come last, as one block, when both services answer: not lost among start-up logs.
Promise.all([ready(process.env.PORTAL_PORT ?? 8000), ready(process.env.POWER7_PORT ?? 8001)]).then(
  async () => {
    while (!signInDetails && !stopping) await new Promise((r) => setTimeout(r, 100));
    if (!stopping) console.log(`\nPower Analyzer is ready.${signInDetails}`);
  },
);

function stop(code) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 5000).unref();
  Promise.all(
    children.map((child) =>
      child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null,
    ),
  ).then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
