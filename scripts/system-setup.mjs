// System packages the test suite needs: Debian's Chromium headless shell (browser tests; the full
// Chromium only when E2E_CHROMIUM names it), the PostgreSQL server and the Redis server (integration
// tests on real servers). Installed with apt-get when missing and running as root; otherwise the exact
// command is printed and the run stops.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Debian's full Chromium: `npm run lighthouse`, and the browser suite when E2E_CHROMIUM names it. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/**
 * Chromium's headless shell: the same Blink and V8 without the full browser's UI layers, which the
 * browser suite runs on (docs/benchmarks/test-suite.md, session 22). Its package is smaller than the
 * full browser's and needs no GTK.
 */
export const CHROMIUM_HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/** The folder holding `initdb`/`pg_ctl`/`postgres` of the newest installed PostgreSQL server, if any. */
export function findPostgresBin() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(`${base}/${v}/bin/postgres`))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? `${base}/${versions[0]}/bin` : null;
}

export function ensureSystemPackages() {
  const missing = [];
  const fullChosen = process.env.E2E_CHROMIUM === CHROMIUM_PATH;
  if (fullChosen && !fs.existsSync(CHROMIUM_PATH)) missing.push('chromium');
  if (!fullChosen && !fs.existsSync(CHROMIUM_HEADLESS_SHELL_PATH))
    missing.push('chromium-headless-shell');
  if (!findPostgresBin()) missing.push('postgresql');
  if (!fs.existsSync('/usr/bin/redis-server')) missing.push('redis-server');
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.error(
      `Missing system packages: ${missing.join(', ')}. Install them with:\n  sudo ${command}`,
    );
    process.exit(1);
  }
  console.log(`Installing system packages: ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('bash', ['-c', command], { stdio: 'inherit', env });
}
