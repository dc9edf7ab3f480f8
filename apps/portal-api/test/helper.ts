import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { emptyPglite } from '@pa/server-kit/testing/empty-pglite';
import { and, eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { buildPortalApp, type PortalApp } from '../src/app';
import { portalConfigSchema, type PortalConfig } from '../src/config';
import { openDatabase, type OpenDatabase, type PortalDb } from '../src/db/client';
import { permissions, rolePermissions, roles, userRoles, users } from '../src/db/schema';
import { hashPassword } from '../src/modules/accounts/passwords';
import { startSignIn } from '../src/modules/accounts/sign-ins';
import { createCompany } from '../src/modules/companies/create-company';
import { seed } from '../src/modules/companies/seed';

export type TestDatabase = 'pglite' | 'postgres';

/** Both databases, for `describe.each(DATABASES)('… on %s', (database) => …)`. */
export const DATABASES: TestDatabase[] = ['pglite', 'postgres'];

/**
 * The compiled portal and admin command, as `npm start` and `npm run admin` run them
 * (scripts/build-services.mjs; Vitest's global set-up builds them when stale): the process tests
 * start these.
 */
export const COMPILED = {
  server: path.resolve(import.meta.dirname, '../dist/server.mjs'),
  admin: path.resolve(import.meta.dirname, '../dist/admin.mjs'),
};

/** The seeded Demo Company administrator's password in every test app. */
export const ADMIN_PASSWORD = 'test-admin-passphrase';

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  _id: string;
  userName: string;
  email: string;
  companyId: string;
  companyName: string;
  permissions: string[];
  roles: { _id: string; name: string }[];
  userFirstName: string;
  userLastName: string;
}

export interface TestCompany {
  companyId: string;
  adminId: string;
  adminUserName: string;
  adminEmail: string;
  adminPassword: string;
}

export interface TestApp {
  app: PortalApp;
  db: PortalDb;
  config: PortalConfig;
  /** The seeded "Demo Company" and its `admin` (password ADMIN_PASSWORD). */
  company: TestCompany;
  /** Signs in through POST /api/accounts/sign-in; throws unless 200. */
  signIn(login: string, password: string): Promise<SignedIn>;
  /** A fresh access token for any user id, issued as a real sign-in (no HTTP, no rate limit). */
  tokenFor(
    userId: string,
  ): Promise<{ accessToken: string; refreshToken: string; signInId: string }>;
  /** `{ authorization: 'Bearer …' }` for a user id (default: the Demo Company admin). */
  authHeader(userId?: string): Promise<{ authorization: string }>;
  /**
   * Inserts a user (default: Demo Company, active, no roles) with a known password; `roles` are role
   * names of that company. Returns its id, userName, email and password.
   */
  createUser(options?: {
    companyId?: string;
    status?: 'active' | 'inactive' | 'locked';
    roles?: string[];
    password?: string;
  }): Promise<{ id: string; userName: string; email: string; password: string }>;
  /** Creates another company (system permissions, Administrator role, admin) like the admin CLI. */
  createCompany(name: string): Promise<TestCompany>;
  /**
   * The resource tests' common fixture: a company's permission ids by code and its Administrator
   * role's id (default: the Demo Company).
   */
  accessFixture(companyId?: string): Promise<{
    permissionIds: Record<string, string>;
    administratorRoleId: string;
  }>;
  /** Inserts a role of the company holding the permissions with these codes; returns its id. */
  createRole(name: string, codes: string[], companyId?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The password of every user `createUser` makes without one. Its argon2 hash is made once per worker
 * (and per parameter set: the test runner's cheap one, or the product's for a timing test that asks
 * for them, passwords.ts) and reused, a real argon2 hash that signs in as any other.
 */
const DEFAULT_USER_PASSWORD = 'user-passphrase-for-tests';
const knownHashes = new Map<string, Promise<string>>();
function hashOf(password: string): Promise<string> {
  const key = `${process.env.NODE_ENV}:${password}`;
  let known = knownHashes.get(key);
  if (!known) knownHashes.set(key, (known = hashPassword(password)));
  return known;
}

let template: Promise<Blob> | undefined;

/**
 * A PGlite database migrated and seeded once per worker; every app gets a copy of it, which is much
 * cheaper than migrating and hashing from scratch. The seeded cluster's dump is kept rather than the
 * cluster: `clone()` dumped it again (~0.2 CPU-s of a copy's ~0.9) for every app.
 */
async function pgliteClone(): Promise<PGlite> {
  template ??= (async () => {
    const base = await emptyPglite();
    const opened = await openDatabase({ DATA_DIR: os.tmpdir(), pglite: base });
    await seed(opened.db, ADMIN_PASSWORD);
    const dump = await base.dumpDataDir('none');
    await base.close();
    return dump;
  })();
  return PGlite.create({ loadDataDir: await template });
}

let databaseCounter = 0;

/** A fresh, empty database on the run's real PostgreSQL server (test/global-setup.ts). */
export async function postgresDatabase(): Promise<string> {
  const baseUrl = inject('postgresUrl');
  const name = `portal_${process.pid}_${Date.now()}_${databaseCounter++}`;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The guard of a CRUD resource at `/api/<resource>`: every route (list, read `id`, create with
 * `createPayload`, update, delete) answers 401 without a token and 403 to `nobody` (no permission
 * codes); read, update and delete of an unknown id answer 404 to `admin`.
 */
export async function expectResourceGuarded(
  t: TestApp,
  options: {
    resource: string;
    id: string;
    createPayload: Record<string, unknown>;
    admin: { authorization: string };
    nobody: { authorization: string };
  },
): Promise<void> {
  const base = `/api/${options.resource}`;
  const unknown = '01900000-0000-7000-8000-000000000000';
  const routes = [
    { method: 'GET', url: base },
    { method: 'GET', url: `${base}/${options.id}` },
    { method: 'POST', url: base, payload: options.createPayload },
    { method: 'PATCH', url: `${base}/${options.id}`, payload: { version: 1 } },
    { method: 'DELETE', url: `${base}/${options.id}` },
  ] as const;
  for (const route of routes) {
    expect((await t.app.inject(route)).statusCode, route.method).toBe(401);
    expect(
      (await t.app.inject({ ...route, headers: options.nobody })).statusCode,
      route.method,
    ).toBe(403);
  }
  for (const route of [
    { method: 'GET', url: `${base}/${unknown}` },
    { method: 'PATCH', url: `${base}/${unknown}`, payload: { version: 1 } },
    { method: 'DELETE', url: `${base}/${unknown}` },
  ] as const) {
    expect(
      (await t.app.inject({ ...route, headers: options.admin })).statusCode,
      route.method,
    ).toBe(404);
  }
}

/** Polls `probe` (every 20 ms, up to 2 s) until it returns a value; for work done after an answer. */
export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition never met');
}

/**
 * Builds the real portal app on a fresh database: an in-memory PGlite (default) or a new database on
 * the run's PostgreSQL server. Seeded with Demo Company + `admin` / ADMIN_PASSWORD. Rate limits are
 * generous unless `env` sets them. Close it with `close()`.
 */
export async function buildTestApp(
  options: {
    database?: TestDatabase;
    env?: Partial<Record<keyof PortalConfig, string>>;
    /** Registers extra routes (e.g. test-only probes) before the app is made ready. */
    routes?: (app: PortalApp) => void;
    /** Where the app's log lines go (with `env.LOG_LEVEL`), to read what the log holds. */
    logStream?: NodeJS.WritableStream;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-portal-test-'));
  const kind = options.database ?? 'pglite';
  const config = portalConfigSchema.parse({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    PUBLIC_URL: 'http://web.test',
    DEMO_ADMIN_PASSWORD: ADMIN_PASSWORD,
    SIGNIN_RATE_LIMIT_IP: '10000',
    SIGNIN_RATE_LIMIT_ACCOUNT: '10000',
    SIGNIN_ACCOUNT_DELAY_AFTER: '10000',
    SIGNIN_ACCOUNT_CEILING: '10000',
    FORGOT_PASSWORD_LIMIT_EMAIL: '10000',
    FORGOT_PASSWORD_LIMIT_IP: '10000',
    ...(kind === 'postgres' ? { DATABASE_URL: await postgresDatabase() } : {}),
    ...options.env,
  });
  const database: OpenDatabase =
    kind === 'postgres'
      ? await openDatabase(config)
      : await openDatabase({ DATA_DIR: dataDir, pglite: await pgliteClone() });
  const app = await buildPortalApp(config, { database, logStream: options.logStream });
  options.routes?.(app);
  await app.ready();
  const db = database.db;

  const [admin] = await db
    .select({ id: users.id, companyId: users.companyId })
    .from(users)
    .where(eq(users.userName, 'admin'));
  if (!admin) throw new Error('seeding did not create the admin');

  const tokenFor = async (userId: string) => {
    const [user] = await db
      .select({ id: users.id, companyId: users.companyId, userName: users.userName })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) throw new Error(`no user ${userId}`);
    return startSignIn(
      db,
      {
        keys: app.signingKeys,
        accessTtl: config.ACCESS_TOKEN_TTL,
        refreshTtl: config.REFRESH_TOKEN_TTL,
        reuseGrace: config.REFRESH_REUSE_GRACE,
      },
      user,
      { ip: '127.0.0.1', userAgent: 'vitest' },
    );
  };

  let companies = 0;
  let userCount = 0;
  const createUserHere: TestApp['createUser'] = async (userOptions = {}) => {
    const companyId = userOptions.companyId ?? admin.companyId;
    const suffix = `${++userCount}-${Date.now().toString(36)}`;
    const password = userOptions.password ?? DEFAULT_USER_PASSWORD;
    const [user] = await db
      .insert(users)
      .values({
        companyId,
        userName: `user-${suffix}`,
        email: `user-${suffix}@example.test`,
        userFirstName: 'Test',
        userLastName: `User ${suffix}`,
        status: userOptions.status ?? 'active',
        passwordHash: await hashOf(password),
      })
      .returning({ id: users.id, userName: users.userName, email: users.email });
    if (!user) throw new Error('user insert failed');
    if (userOptions.roles?.length) {
      const found = await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.companyId, companyId), inArray(roles.name, userOptions.roles)));
      if (found.length !== userOptions.roles.length)
        throw new Error(`unknown roles ${userOptions.roles.join(', ')}`);
      await db
        .insert(userRoles)
        .values(found.map((r) => ({ userId: user.id, roleId: r.id, companyId })));
    }
    return { ...user, password };
  };
  const accessFixture: TestApp['accessFixture'] = async (companyId = admin.companyId) => {
    const rows = await db
      .select({ id: permissions.id, code: permissions.code })
      .from(permissions)
      .where(eq(permissions.companyId, companyId));
    const [administrator] = await db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.companyId, companyId), eq(roles.isSystem, true)));
    if (!administrator) throw new Error(`no Administrator role in company ${companyId}`);
    return {
      permissionIds: Object.fromEntries(rows.map((row) => [row.code, row.id])),
      administratorRoleId: administrator.id,
    };
  };
  const createRole: TestApp['createRole'] = async (name, codes, companyId = admin.companyId) => {
    const { permissionIds } = await accessFixture(companyId);
    const [role] = await db.insert(roles).values({ companyId, name }).returning({ id: roles.id });
    if (!role) throw new Error('role insert failed');
    if (codes.length > 0) {
      await db.insert(rolePermissions).values(
        codes.map((code) => {
          const permissionId = permissionIds[code];
          if (!permissionId) throw new Error(`unknown permission ${code}`);
          return { roleId: role.id, permissionId, companyId };
        }),
      );
    }
    return role.id;
  };
  return {
    app,
    db,
    config,
    accessFixture,
    createRole,
    company: {
      companyId: admin.companyId,
      adminId: admin.id,
      adminUserName: 'admin',
      adminEmail: 'admin@demo.local',
      adminPassword: ADMIN_PASSWORD,
    },
    async signIn(login, password) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/accounts/sign-in',
        payload: login.includes('@') ? { email: login, password } : { userName: login, password },
      });
      if (response.statusCode !== 200) {
        throw new Error(`sign-in of ${login} answered ${response.statusCode}: ${response.body}`);
      }
      return response.json().data as SignedIn;
    },
    tokenFor,
    createUser: createUserHere,
    async authHeader(userId = admin.id) {
      return { authorization: `Bearer ${(await tokenFor(userId)).accessToken}` };
    },
    async createCompany(name) {
      const suffix = `${++companies}${Date.now().toString(36)}`;
      const adminUserName = `admin-${suffix}`;
      const adminEmail = `admin-${suffix}@company.test`;
      const adminPassword = `second-company-pass-${suffix}`;
      const created = await createCompany(db, {
        name,
        admin: {
          userName: adminUserName,
          email: adminEmail,
          passwordHash: await hashPassword(adminPassword),
        },
      });
      if (!created.adminUserId) throw new Error(`company ${name} already exists`);
      return {
        companyId: created.companyId,
        adminId: created.adminUserId,
        adminUserName,
        adminEmail,
        adminPassword,
      };
    },
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
