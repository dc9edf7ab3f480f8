import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { endedSignInKey } from '@pa/server-kit/ended-sign-ins';
import { buildPower7App } from '../src/app';
import { power7ConfigSchema } from '../src/config';
import { COMPILED } from './product-process';

export const ALL_PERMS = ['power7.run', 'power7.download', 'power7.sessions.clear'];

/** A key pair the tests own, published as a JWK set file the service reads (JWKS_FILE). */
export async function makeKeys(dir: string) {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'EdDSA', use: 'sig' };
  const file = join(dir, 'jwks.json');
  await writeFile(file, JSON.stringify({ keys: [jwk] }));
  const sign = (
    claims: { sub?: string; cid?: string; perms?: string[]; typ?: string } = {},
    options: { expiresIn?: string | number; issuer?: string; audience?: string } = {},
  ) =>
    new SignJWT({
      cid: claims.cid ?? 'company-a',
      perms: claims.perms ?? ALL_PERMS,
      sid: 'sign-in-1',
      typ: claims.typ ?? 'access',
      name: 'tester',
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'test-key' })
      .setSubject(claims.sub ?? 'user-a')
      .setIssuer(options.issuer ?? 'power-analyzer-portal')
      .setAudience(options.audience ?? 'power-analyzer')
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '15m')
      .sign(privateKey);
  return { file, sign, privateKey };
}

export async function tempDir(prefix = 'p7-test-') {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * A stand-in portal answering only `/api/.well-known/revoked-sessions` with the keys of the `ended`
 * sign-in ids, as the portal publishes them (`up` false: 503),
 * on `port` (0: one the system picks). Power 7 refuses tokens without a fresh list of ended sign-ins.
 */
export async function standInPortal(port = 0) {
  const state = { up: true, requests: 0, ended: new Set<string>() };
  const server: Server = createServer((request, response) => {
    state.requests++;
    const found = request.url === '/api/.well-known/revoked-sessions';
    response.writeHead(state.up ? (found ? 200 : 404) : 503, {
      'content-type': 'application/json',
    });
    response.end(
      JSON.stringify(
        state.up && found
          ? { success: true, data: { sessionIds: [...state.ended].map(endedSignInKey) } }
          : {},
      ),
    );
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  server.unref();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    state,
    /** What JWKS_URL is set to, so the list is read beside it. */
    jwksUrl: `${base}/api/.well-known/jwks.json`,
    close: () => new Promise((done) => server.close(done)),
  };
}

let sharedPortal: ReturnType<typeof standInPortal> | null = null;
/** One stand-in portal with no ended sign-ins, for every app of a test file that names no JWKS_URL. */
export function endedSignInsUrl(): Promise<string> {
  sharedPortal ??= standInPortal();
  return sharedPortal.then((portal) => portal.jwksUrl);
}

export function testConfig(env: Record<string, string>) {
  return power7ConfigSchema.parse({ LOG_LEVEL: 'silent', WORKER_THREADS: '2', ...env });
}

/**
 * Gives an app that opens its own PGlite a copy of the run's migrated folder (test/global-setup.ts)
 * instead of creating one: the copy is the folder a first start makes. The first start itself is
 * run by the process tests (restart, backup, start-script): their services migrate an empty cluster
 * (`withEmptyDatabases`), and the start-script test's create theirs.
 */
async function seedPgliteFolder(env: Record<string, string>) {
  // The benches build apps through this helper too, outside Vitest: they create their folders.
  // P7_FRESH_PGLITE=1 makes every test app create its own, as before (to measure the difference).
  if (!process.env.VITEST || process.env.P7_FRESH_PGLITE) return;
  if (env.DATABASE_URL || !env.DATA_DIR) return;
  const folder = join(env.DATA_DIR, 'power7-db');
  if (existsSync(folder)) return;
  const { inject } = await import('vitest');
  await cp(inject('power7PgliteTemplate'), folder, { recursive: true });
}

export async function buildTestApp(env: Record<string, string>) {
  await seedPgliteFolder(env);
  const app = await buildPower7App(
    testConfig({ ...(env.JWKS_URL ? {} : { JWKS_URL: await endedSignInsUrl() }), ...env }),
  );
  await app.ready();
  return app;
}

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomTicket(pool: number, next: () => number): number[] {
  const picked = new Set<number>();
  while (picked.size < 7) picked.add(1 + Math.floor(next() * pool));
  return [...picked].sort((a, b) => a - b);
}

/** A customer CSV with `rows` tickets in 7 columns, plus optional raw extra lines. */
export function customerCsv(rows: number, pool: number, seed = 1, extraLines: string[] = []) {
  const next = rng(seed);
  const lines = ['customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7,note'];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `C${i + 1},Name ${i + 1},+1555${1000 + i},${randomTicket(pool, next).join(',')},x${i}`,
    );
  }
  lines.push(...extraLines);
  return lines.join('\n') + '\n';
}

export interface UploadFields {
  budget_type?: string;
  budget?: string;
  budget_min?: string;
  budget_max?: string;
  payout_3?: string;
  payout_4?: string;
  payout_5?: string;
  payout_6?: string;
  payout_7?: string;
  pool_size?: string;
  [key: string]: string | undefined;
}

export const DEFAULT_FIELDS: UploadFields = {
  budget_type: 'fixed',
  budget: '60000',
  payout_3: '1',
  payout_4: '5',
  payout_5: '50',
  payout_6: '500',
  payout_7: '5000',
};

/** A multipart/form-data body built by hand, so tests control every byte. */
export function multipart(
  fields: UploadFields,
  file?: { name: string; content: Buffer | string; field?: string },
) {
  const boundary = `----p7test${uuidv7().replaceAll('-', '')}`;
  const chunks: Buffer[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'customer_file'}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The same form with its fields after the file (a browser may send them in any order). */
export function multipartFieldsLast(
  fields: UploadFields,
  file: { name: string; content: Buffer | string },
) {
  const body = multipart({}, file);
  const tail = multipart(fields);
  const boundary = body.headers['content-type'].split('boundary=')[1]!;
  const fieldsPart = tail.payload
    .toString()
    .replaceAll(tail.headers['content-type'].split('boundary=')[1]!, boundary);
  return {
    headers: body.headers,
    payload: Buffer.concat([
      body.payload.subarray(0, body.payload.length - `--${boundary}--\r\n`.length),
      Buffer.from(fieldsPart),
    ]),
  };
}

export const cleanup = (dir: string) => rm(dir, { recursive: true, force: true });

/** The engine CLI's `analyze --json` answer (docs/product/services.md "Operating it"). */
export interface CliAnalysis {
  pool: number;
  tickets: number;
  rejectedRows: number;
  draws: number;
  qualified: number;
  totalPayout: { min: number; mean: number; max: number };
  top: { combo: string; winners: Record<string, number>; totalPayout: number }[];
}

/**
 * The engine CLI's `analyze --json` on a customer file (payouts 1/5/50/500/5000, a fixed budget), run
 * as its own process (the compiled CLI, as `npm run power7` runs it): the reference the service's
 * results are compared with.
 */
export async function engineCliAnalyze(
  file: string,
  budget: number,
  pool: number,
): Promise<CliAnalysis> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      COMPILED.cli,
      'analyze',
      '--file',
      file,
      '--payouts',
      '3=1,4=5,5=50,6=500,7=5000',
      '--budget',
      String(budget),
      '--pool',
      String(pool),
      '--json',
    ],
    { cwd: resolve(import.meta.dirname, '../../..') },
  );
  return JSON.parse(stdout) as CliAnalysis;
}

/** Every draw of a pool (ascending numbers, 1-based), the obvious way: for small pools only. */
export function* everyDraw(pool: number, from = 1, picked: number[] = []): Generator<number[]> {
  if (picked.length === 7) {
    yield picked;
    return;
  }
  for (let n = from; n <= pool; n++) yield* everyDraw(pool, n + 1, [...picked, n]);
}

/** Every draw's total payout (`payouts[m - 3]` per m-match winner), counted ticket by ticket. */
export function totalsOfEveryDraw(tickets: number[][], pool: number, payouts: number[]): number[] {
  const totals: number[] = [];
  for (const draw of everyDraw(pool)) {
    let total = 0;
    for (const ticket of tickets) {
      const m = ticket.filter((n) => draw.includes(n)).length;
      if (m >= 3) total += payouts[m - 3]!;
    }
    totals.push(total);
  }
  return totals;
}
