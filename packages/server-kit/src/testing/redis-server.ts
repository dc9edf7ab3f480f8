import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './postgres-server';

/** A throwaway Redis server for integration tests (Debian's `redis-server`). */
export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (a Redis outage); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export const REDIS_SERVER = '/usr/bin/redis-server';

/**
 * Starts `redis-server` on a free loopback port in a temporary folder; no persistence, unless
 * `persistent` (an append-only file synced on every write, so a restart keeps everything).
 */
export async function startTestRedis({ persistent = false } = {}): Promise<TestRedis> {
  if (!fs.existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} not found; run \`npm test\` (it installs it) or \`apt-get install -y redis-server\`.`,
    );
  }
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-redis-'));
  let child: ReturnType<typeof spawn> | null = null;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const server = spawn(
        REDIS_SERVER,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          ...(persistent
            ? ['--appendonly', 'yes', '--appendfsync', 'always']
            : ['--appendonly', 'no']),
        ],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = server;
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          server.stdout.off('data', onData);
          resolve();
        }
      };
      server.stdout.on('data', onData);
      server.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });

  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    // cleanup of the folder happens with the OS's temporary files; it holds no data (no persistence)
  };
}
