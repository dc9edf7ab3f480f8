// `npm start` (scripts/start.mjs) restarts a service that dies, and gives up past RESTART_LIMIT.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '@pa/server-kit/testing/postgres-server';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from './helper';

const repoRoot = resolve(import.meta.dirname, '../../..');

/** The pid of the starter's child running `entry`. */
function childRunning(parent: number, entry: string): number {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(entry))
        return Number(pid);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no child running ${entry}`);
}

describe('npm start', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await cleanup(dir);
  });

  it('restarts a Power 7 service killed with -9 while the portal stays up, then gives up past the limit', async () => {
    dir = await tempDir('start-script-');
    const [portalPort, power7Port] = [await freePort(), await freePort()];
    const starter = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        SKIP_WEB_BUILD: '1',
        DATA_DIR: dir,
        PORTAL_PORT: String(portalPort),
        POWER7_PORT: String(power7Port),
        LOG_LEVEL: 'warn',
        DEMO_ADMIN_PASSWORD: 'start-script-passphrase',
        RESTART_LIMIT: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    starter.stdout.on('data', (chunk) => (output += chunk));
    starter.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((done) => starter.once('exit', done));
    const printed = async (text: string) => {
      for (let i = 0; i < 3600 && !output.includes(text); i++) {
        if (starter.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(output).toContain(text);
    };
    try {
      await printed('Power Analyzer is ready.');
      const portal = childRunning(starter.pid!, 'portal-api/dist/server.mjs');
      process.kill(childRunning(starter.pid!, 'power7-api/dist/server.mjs'), 'SIGKILL');
      await printed('power7 service stopped (SIGKILL); restarting it in 1 s (restart 1 of 1');
      await printed('power7 service restarted and ready.');
      expect((await fetch(`http://127.0.0.1:${power7Port}/api/ready/`)).status).toBe(200);
      // the portal was never stopped
      expect(childRunning(starter.pid!, 'portal-api/dist/server.mjs')).toBe(portal);
      expect((await fetch(`http://127.0.0.1:${portalPort}/api/ready/`)).status).toBe(200);

      process.kill(childRunning(starter.pid!, 'power7-api/dist/server.mjs'), 'SIGKILL');
      const code = await exited;
      expect(code).not.toBe(0);
      expect(output).toContain(
        'power7 service stopped (SIGKILL) after 1 restarts within 60 s; giving up and stopping everything.',
      );
      await expect(fetch(`http://127.0.0.1:${portalPort}/api/live/`)).rejects.toThrow();
    } finally {
      if (starter.exitCode === null) {
        starter.kill('SIGTERM');
        await exited;
      }
    }
  }, 300_000);
});
