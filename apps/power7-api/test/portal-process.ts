import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { freePort } from '@pa/server-kit/testing/postgres-server';
import { COMPILED, repoRoot, withEmptyDatabases } from './product-process';

export interface PortalProcess {
  url: string;
  /** What Power 7's JWKS_URL is for this portal. */
  jwksUrl: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    accessToken?: string,
  ): Promise<{ status: number; data: Record<string, unknown> }>;
  signIn(
    userName: string,
    password: string,
  ): Promise<{ accessToken: string; refreshToken: string; _id: string }>;
  stop(): Promise<void>;
}

/**
 * The real (compiled) portal as a child process on a free port, once it answers ready; on PGlite its
 * database starts from the run's empty cluster (`withEmptyDatabases`).
 */
export async function startPortal(env: Record<string, string>): Promise<PortalProcess> {
  if (env.DATA_DIR && !env.DATABASE_URL) await withEmptyDatabases(env.DATA_DIR, ['portal-db']);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [COMPILED.portal], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORTAL_PORT: String(port),
      LOG_LEVEL: 'silent',
      SKIP_WEB_BUILD: '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/ready/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 2400 || child.exitCode !== null) {
      await stop();
      throw new Error('the portal did not start');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const call: PortalProcess['call'] = async (method, path, body, accessToken) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { data: Record<string, unknown> };
    return { status: response.status, data: json.data };
  };
  return {
    url,
    jwksUrl: `${url}/api/.well-known/jwks.json`,
    call,
    async signIn(userName, password) {
      const answer = await call('POST', '/api/accounts/sign-in', { userName, password });
      expect(answer.status).toBe(200);
      return answer.data as unknown as { accessToken: string; refreshToken: string; _id: string };
    },
    stop,
  };
}
