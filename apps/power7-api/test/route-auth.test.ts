// Authentication is declared once for the Power 7 route group (routes/api/power7/index.ts, issue #44):
// every route the service registers answers 401 in the envelope without a token, before its
// parameters or body are read, except the public ones named here. The routes are read from Fastify's
// own router, not from the OpenAPI document, so a route added anywhere without authentication (or
// hidden from the document) fails this test.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeKeys, tempDir } from './helper';

let app: Awaited<ReturnType<typeof buildTestApp>>;
let dir: string;
let keys: Awaited<ReturnType<typeof makeKeys>>;
beforeAll(async () => {
  dir = await tempDir();
  keys = await makeKeys(dir);
  app = await buildTestApp({ DATA_DIR: dir, JWKS_FILE: keys.file });
});
afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Route {
  method: string;
  url: string;
}

/**
 * Every route of the router, from `printRoutes({ commonPrefix: false })`: one line a node, four
 * characters of indentation a level, a node's path following its parent's, then its methods
 * ("├── :id/ (PATCH, DELETE)"). HEAD routes are Fastify's copies of the GET ones.
 */
function registeredRoutes(tree: string): Route[] {
  const parents: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const node = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1]!.length / 4;
    parents.length = depth;
    const path = (parents[depth - 1] ?? '') + node[2]!;
    parents[depth] = path;
    for (const method of (node[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ method, url: path });
    }
  }
  return routes;
}

/** A request to the route with its parameters filled in. */
const concrete = (url: string) =>
  url.replace(/:[^/]+/g, '01900000-0000-7000-8000-000000000000').replace(/\*$/, 'x');
const key = (route: Route) => `${route.method} ${route.url}`;

/** The routes that take no token: liveness and readiness, health and status, the API's own document,
 * the Prometheus scrape and CORS preflights. */
const PUBLIC = [
  'GET /api/live/',
  'GET /api/ready/',
  'GET /api/health/',
  'GET /api/status/',
  'GET /api/docs',
  'GET /api/docs/',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/*',
  'GET /metrics',
  'OPTIONS *',
];

describe('authentication of every Power 7 route', () => {
  it('reads every route of the router, the documented ones among them', async () => {
    const routes = registeredRoutes(app.printRoutes({ commonPrefix: false })).map(key);
    const doc = (await app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map(
        (method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`,
      ),
    );
    expect(documented.length).toBeGreaterThan(25);
    expect(documented.filter((route) => !routes.includes(route))).toEqual([]);
    expect(PUBLIC.filter((route) => !routes.includes(route))).toEqual([]);
  });

  it('documents the bearer token on every route that needs one, and on no public one', async () => {
    const doc = (await app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    };
    const wrong = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => {
        const route = `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
        const bearer = (operation.security ?? []).some((rule) => 'bearerAuth' in rule);
        return bearer === PUBLIC.includes(route) ? [route] : [];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('answers 401 in the envelope without a token on every route but the public ones', async () => {
    const guarded = registeredRoutes(app.printRoutes({ commonPrefix: false })).filter(
      (route) => !PUBLIC.includes(key(route)),
    );
    expect(guarded.length).toBeGreaterThan(25);
    const answers: string[] = [];
    for (const route of guarded) {
      const answer = await app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        // a body the route would refuse (400) if it were read before the token
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      const body = answer.json() as { success?: boolean; status?: number; message?: string };
      answers.push(
        `${key(route)} ${answer.statusCode} ${String(body.success)} ${body.status} ${body.message}`,
      );
    }
    expect(answers).toEqual(
      guarded.map((route) => `${key(route)} 401 false 401 Authentication is required.`),
    );
  });

  it('answers 403 to a token without permissions on every guarded route that reads no body', async () => {
    // Each route names its permission in its handler (requirePermission): a route that forgot it
    // would answer a signed-in user without permissions with its data or a 404. Routes with a body
    // validate it first (400), so the requests that carry none are the ones this can see.
    const bodiless = registeredRoutes(app.printRoutes({ commonPrefix: false })).filter(
      (route) =>
        !PUBLIC.includes(key(route)) && (route.method === 'GET' || route.method === 'DELETE'),
    );
    expect(bodiless.length).toBeGreaterThan(10);
    const token = await keys.sign({ perms: [] });
    const answers: string[] = [];
    // parameters and queries the routes accept, so each request reaches its handler
    const valid = (url: string) => {
      const path = url
        .replace(':combo', '1-2-3-4-5-6-7')
        .replace(':matchType', '3')
        .replace(/:[^/]+/g, '01900000-0000-7000-8000-000000000000')
        .replace(/\*$/, 'x');
      if (path.endsWith('exposure.csv')) return `${path}?over=1&by=combination`;
      if (path.endsWith('refused.csv') || path.endsWith('/limit/')) return `${path}?limit=1`;
      return path;
    };
    for (const route of bodiless) {
      const answer = await app.inject({
        method: route.method as 'GET',
        url: valid(route.url),
        headers: { authorization: `Bearer ${token}` },
      });
      const body = answer.json() as { success?: boolean; message?: string };
      answers.push(`${key(route)} ${answer.statusCode} ${String(body.success)}`);
    }
    expect(answers).toEqual(bodiless.map((route) => `${key(route)} 403 false`));
  });

  it('lets the public routes through without a token', async () => {
    for (const route of PUBLIC.filter((k) => !k.startsWith('OPTIONS'))) {
      const url = concrete(route.split(' ')[1]!);
      const answer = await app.inject({ method: 'GET', url });
      expect({ route, status: answer.statusCode }).not.toMatchObject({ status: 401 });
    }
  });
});
