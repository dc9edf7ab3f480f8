import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestPostgres, type TestPostgres } from '@pa/server-kit/testing/postgres-server';
import {
  buildTestApp,
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  makeKeys,
  multipart,
  tempDir,
} from './helper';

// The session metadata on a real PostgreSQL server (DATABASE_URL) instead of PGlite.
let server: TestPostgres;
let dir: string;
let url: string;
let keys: Awaited<ReturnType<typeof makeKeys>>;
let app: FastifyInstance | null = null;

beforeAll(async () => {
  server = await startTestPostgres();
  url = await server.createDatabase('power7_test');
  dir = await tempDir('p7-pg-');
  keys = await makeKeys(dir);
});

afterAll(async () => {
  await app?.close();
  await server?.stop();
  if (dir) await cleanup(dir);
});

const env = () => ({ DATA_DIR: join(dir, 'data'), JWKS_FILE: keys.file, DATABASE_URL: url });

async function waitDone(a: FastifyInstance, token: string, id: string) {
  for (let i = 0; i < 2400; i++) {
    const res = await a.inject({
      url: `/api/power7/processing-status/?session=${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const data = res.json().data;
    if (data.status !== 'queued' && data.status !== 'running') return data;
    await new Promise((r) => setTimeout(r, 25));
  }
  const last = await a.inject({
    url: `/api/power7/processing-status/?session=${id}`,
    headers: { authorization: `Bearer ${token}` },
  });
  throw new Error(`not finished: ${last.body} ${JSON.stringify(a.power7.queue.stats())}`);
}

it('keeps sessions in PostgreSQL across restarts and re-runs one left running', async () => {
  const token = await keys.sign();
  const headers = { authorization: `Bearer ${token}` };
  app = await buildTestApp(env());
  const body = multipart(
    { ...DEFAULT_FIELDS, pool_size: '12' },
    {
      name: 'c.csv',
      content: customerCsv(800, 12, 3),
    },
  );
  const res = await app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: body.payload,
    headers: { ...body.headers, ...headers },
  });
  expect(res.statusCode).toBe(202);
  const id = res.json().data._id;
  const done = await waitDone(app, token, id);
  expect(done).toMatchObject({ status: 'done', counts: { accepted: 800, draws: 792 } });
  const health = await app.inject({ url: '/api/health/' });
  expect(health.json().data.database).toBe('postgres');
  const before = (
    await app.inject({ method: 'POST', url: '/api/filter/', headers, payload: { session: id } })
  ).json().data;
  await app.close();

  // the table is prefixed and its migrations are kept apart from the portal's
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query(
      "select table_schema, table_name from information_schema.tables where table_name like '%power7%' or table_schema like 'power7%' order by 1, 2",
    );
    expect(tables.rows.map((r) => `${r.table_schema}.${r.table_name}`)).toEqual([
      'power7_drizzle.__drizzle_migrations',
      'public.power7_audit_events',
      'public.power7_sessions',
    ]);
    // as if the process had died during the job
    await client.query("update power7_sessions set status = 'running', phase = 'scanning'");
  } finally {
    await client.end();
  }

  app = await buildTestApp(env());
  const again = await waitDone(app, token, id);
  expect(again.status).toBe('done');
  const after = (
    await app.inject({ method: 'POST', url: '/api/filter/', headers, payload: { session: id } })
  ).json().data;
  expect(after).toEqual(before);
  await app.close();

  // a job cut off again and again is given up, not retried forever
  const client2 = new pg.Client({ connectionString: url });
  await client2.connect();
  await client2.query("update power7_sessions set status = 'running', attempts = 3");
  await client2.end();
  app = await buildTestApp(env());
  const given = await waitDone(app, token, id);
  expect(given).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
});
