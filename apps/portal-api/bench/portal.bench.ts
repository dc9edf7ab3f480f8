/**
 * Portal benchmark: `npm run bench:portal [-- --quick]` (a script that prints figures, not a test).
 *
 * Starts the real portal on the embedded database (PGlite in a temp DATA_DIR, or DATABASE_URL when
 * set), inserts 10,000 users into the Demo Company directly through the database (one shared
 * argon2 hash, for setup speed) and waits for the vacuum/analyze the server runs after writes; then
 * over real HTTP on loopback measures sequential latency (p50/p95) of: the users list (page 1, a deep page, sorted, searched), verify and sign-in; and the
 * throughput of `GET /api/accounts/verify` under load (autocannon) next to a bare Fastify route
 * measured in the same run. Targets (issue #4): list p95 ≤ 30 ms, verify ≥ half the bare route.
 */
import fs from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { eq } from 'drizzle-orm';
import { buildPortalApp } from '../src/app';
import { portalConfigSchema } from '../src/config';
import { openDatabase } from '../src/db/client';
import { users } from '../src/db/schema';
import { hashPassword } from '../src/modules/accounts/passwords';

const quick = process.argv.includes('--quick');
const USERS = quick ? 2_000 : 10_000;
const SAMPLES = quick ? 50 : 200;
const LOAD_SECONDS = quick ? 3 : 8;
const PASSWORD = 'bench-admin-passphrase';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function timed(
  samples: number,
  call: (i: number) => Promise<Response>,
): Promise<{ p50: number; p95: number; max: number }> {
  for (let i = 0; i < 10; i++) await (await call(i)).arrayBuffer(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    const response = await call(i);
    await response.arrayBuffer();
    times.push(performance.now() - start);
    if (!response.ok) throw new Error(`request answered ${response.status}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) ?? NaN };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'pa-portal-bench-'));
  const config = portalConfigSchema.parse({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    DEMO_ADMIN_PASSWORD: PASSWORD,
    SIGNIN_RATE_LIMIT_IP: '1000000',
    SIGNIN_RATE_LIMIT_ACCOUNT: '1000000',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const database = await openDatabase(config);
  const app = await buildPortalApp(config, { database });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ success: true, message: 'OK', data: { ok: true } }));
  try {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const bareBase = await bare.listen({ host: '127.0.0.1', port: 0 });
    const databaseName = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (on disk)';

    // Setup: USERS users in the Demo Company, inserted in batches with one shared hash.
    const setupStart = performance.now();
    const [admin] = await app.db
      .select({ companyId: users.companyId })
      .from(users)
      .where(eq(users.userName, 'admin'));
    if (!admin) throw new Error('no seeded admin');
    const hash = await hashPassword('bench-user-passphrase');
    const last = ['Smith', 'Jones', 'Garcia', 'Müller', 'Nguyen', 'Kowalski', 'Rossi', 'Dubois'];
    for (let offset = 0; offset < USERS; offset += 1000) {
      await app.db.insert(users).values(
        Array.from({ length: Math.min(1000, USERS - offset) }, (_, k) => {
          const i = offset + k;
          return {
            companyId: admin.companyId,
            userName: `bench-user-${i}`,
            email: `bench-user-${i}@bench.test`,
            userFirstName: `First${i % 997}`,
            userLastName: `${last[i % last.length]} ${i % 89}`,
            phone: `+1 555 ${String(i).padStart(5, '0')}`,
            status: i % 20 === 0 ? ('locked' as const) : ('active' as const),
            passwordHash: hash,
          };
        }),
      );
    }
    // What the server does by itself ~1 s after writes (PGlite has no autovacuum, db/maintenance.ts):
    // awaited here so the figures do not depend on when it happens to run.
    await database.maintain();
    const setupMs = performance.now() - setupStart;

    const signIn = () =>
      fetch(`${base}/api/accounts/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userName: 'admin', password: PASSWORD }),
      });
    const signedIn = (await (await signIn()).json()) as { data: { accessToken: string } };
    const headers = { authorization: `Bearer ${signedIn.data.accessToken}` };
    const get = (url: string) => () => fetch(`${base}${url}`, { headers });

    const deepPage = Math.floor(USERS / 10 / 10) * 9; // 90% of the way through, at pageSize 10
    const rows: [string, { p50: number; p95: number; max: number }][] = [];
    rows.push(['list users, page 1 (default sort)', await timed(SAMPLES, get('/api/users'))]);
    rows.push([
      'list users, page 1, sort _id:desc',
      await timed(SAMPLES, get('/api/users?sort=_id:desc')),
    ]);
    rows.push([
      `list users, deep page ${deepPage}, sort userLastName:asc,userFirstName:asc`,
      await timed(
        SAMPLES,
        get(`/api/users?page=${deepPage}&sort=userLastName:asc,userFirstName:asc`),
      ),
    ]);
    rows.push([
      'list users, search "smith", sort userName:asc',
      await timed(SAMPLES, get('/api/users?search=smith&sort=userName:asc')),
    ]);
    rows.push([
      'list users, search "user-99" + filters[status]=active, pageSize 100',
      await timed(
        SAMPLES,
        get('/api/users?search=user-99&filters[status]=active&pageSize=100&sort=email:desc'),
      ),
    ]);
    rows.push(['verify', await timed(SAMPLES, get('/api/accounts/verify'))]);
    rows.push(['sign-in (argon2id 19 MiB, t=2)', await timed(Math.min(SAMPLES, 60), signIn)]);

    const bareLoad = await autocannon({
      url: `${bareBase}/bare`,
      connections: 10,
      duration: LOAD_SECONDS,
    });
    const verifyLoad = await autocannon({
      url: `${base}/api/accounts/verify`,
      connections: 10,
      duration: LOAD_SECONDS,
      headers,
    });
    if (verifyLoad.non2xx > 0 || verifyLoad.errors > 0) {
      throw new Error(
        `verify under load: ${verifyLoad.non2xx} non-2xx, ${verifyLoad.errors} errors`,
      );
    }

    const f = (n: number) => n.toFixed(1);
    const listP95 = Math.max(
      ...rows.filter(([name]) => name.startsWith('list')).map(([, r]) => r.p95),
    );
    const ratio = verifyLoad.requests.average / bareLoad.requests.average;
    console.log(
      `\nPortal benchmark — ${databaseName}, ${USERS.toLocaleString('en')} users in one company, ` +
        `${SAMPLES} sequential requests per row over loopback HTTP; ${cpus().length} cores, ` +
        `load average ${loadavg()[0]?.toFixed(2)}; setup ${f(setupMs / 1000)} s\n`,
    );
    console.log('| measure | p50 ms | p95 ms | max ms |');
    console.log('|---|---|---|---|');
    for (const [name, r] of rows)
      console.log(`| ${name} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.max)} |`);
    console.log(
      `\n| under load (autocannon, 10 connections, ${LOAD_SECONDS} s) | req/s | p50 ms | p99 ms |`,
    );
    console.log('|---|---|---|---|');
    console.log(
      `| bare Fastify route | ${Math.round(bareLoad.requests.average)} | ${bareLoad.latency.p50} | ${bareLoad.latency.p99} |`,
    );
    console.log(
      `| GET /api/accounts/verify | ${Math.round(verifyLoad.requests.average)} | ${verifyLoad.latency.p50} | ${verifyLoad.latency.p99} |`,
    );
    console.log(
      `\nTargets: list p95 ≤ 30 ms → ${f(listP95)} ms ${listP95 <= 30 ? 'MET' : 'MISSED'}; ` +
        `verify ≥ 0.5 × bare → ${ratio.toFixed(2)} × ${ratio >= 0.5 ? 'MET' : 'MISSED'}`,
    );
  } finally {
    await bare.close();
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
