import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '@pa/server-kit/testing/postgres-server';
import { endedSignInsUrl } from './helper';
import { COMPILED } from './product-process';

/** An answer's envelope, its data as the test reads it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads its own fields
type Answer = { data: any; message?: string; errors?: { field: string }[] };

/** A Power 7 service started as `npm start` does (the compiled server), in a child process of its own. */
export interface Power7Child {
  proc: ChildProcess;
  base: string;
  /** JSON request with the bearer token: status and parsed body. */
  call(
    method: string,
    path: string,
    token: string,
    body?: unknown,
  ): Promise<{ status: number; body: Answer }>;
  kill(): Promise<void>;
}

export async function startPower7Child(
  env: Record<string, string>,
  port?: number,
): Promise<Power7Child> {
  const listen = port ?? (await freePort());
  const proc = spawn(process.execPath, [COMPILED.power7], {
    cwd: resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      POWER7_PORT: String(listen),
      JWKS_URL: await endedSignInsUrl(),
      LOG_LEVEL: 'silent',
      WORKER_THREADS: '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (chunk) => (stderr += chunk));
  const base = `http://127.0.0.1:${listen}`;
  // a time bound: a start on a busy machine takes seconds
  for (const until = Date.now() + 60_000; ;) {
    if (proc.exitCode !== null) throw new Error(`Power 7 exited with ${proc.exitCode}: ${stderr}`);
    if (Date.now() > until) throw new Error(`Power 7 did not start: ${stderr}`);
    const up = await fetch(`${base}/api/live/`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    proc,
    base,
    async call(method, path, token, body) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as never };
    },
    async kill() {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

/** Uploads a CSV with its form fields through a child and waits until its analysis is done. */
export async function uploadAndWait(
  child: Power7Child,
  token: string,
  csv: string,
  fields: Record<string, string | undefined>,
): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  form.append('customer_file', new Blob([csv]), 'customers.csv');
  const res = await fetch(`${child.base}/api/upload/`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
  const id = ((await res.json()) as { data: { _id: string } }).data._id;
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    const status = (await child.call('GET', `/api/power7/processing-status/?session=${id}`, token))
      .body.data.status;
    if (status === 'done') return id;
    if (status !== 'queued' && status !== 'running') throw new Error(`analysis ${status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the analysis did not finish');
}
