import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyEmptyCluster, emptyPglite } from '@pa/server-kit/testing/empty-pglite';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from '../src/db/client';
import { companies, permissions, rolePermissions, roles, userRoles, users } from '../src/db/schema';
import { hashPassword, verifyPassword } from '../src/modules/accounts/passwords';
import { createCompany } from '../src/modules/companies/create-company';
import { seed } from '../src/modules/companies/seed';
import { SYSTEM_PERMISSION_CODES } from '../src/modules/companies/system-permissions';

const counts = async (database: OpenDatabase) => {
  const count = async (
    table: typeof companies | typeof users | typeof permissions | typeof roles,
  ) => (await database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n;
  return {
    companies: await count(companies),
    users: await count(users),
    permissions: await count(permissions),
    roles: await count(roles),
  };
};

describe('seeding', () => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openDatabase({ DATA_DIR: os.tmpdir(), pglite: await emptyPglite() });
  });
  afterAll(() => database?.close());

  it('creates Demo Company with a generated password once, and is idempotent', async () => {
    const first = await seed(database.db);
    expect(first.created).toBe(true);
    expect(first.generatedPassword).toMatch(/^[\w-]{20}$/);
    const after = await counts(database);
    expect(after).toEqual({
      companies: 1,
      users: 1,
      permissions: SYSTEM_PERMISSION_CODES.length,
      roles: 1,
    });
    const [admin] = await database.db.select().from(users).where(eq(users.userName, 'admin'));
    expect(admin).toMatchObject({ email: 'admin@demo.local', status: 'active' });
    expect(await verifyPassword(admin?.passwordHash ?? null, first.generatedPassword ?? '')).toBe(
      true,
    );
    // argon2id (its parameters outside a test runner: passwords.test.ts)
    expect(admin?.passwordHash).toMatch(/^\$argon2id\$v=19\$/);
    const links = await database.db
      .select()
      .from(userRoles)
      .where(eq(userRoles.userId, admin?.id ?? ''));
    expect(links).toHaveLength(1);

    const second = await seed(database.db, 'a-different-demo-password');
    expect(second).toEqual({ created: false });
    expect(await counts(database)).toEqual(after);
    const [same] = await database.db.select().from(users).where(eq(users.userName, 'admin'));
    expect(same?.passwordHash).toBe(admin?.passwordHash);
  });

  it('gives back a system permission and its Administrator grant that went missing', async () => {
    await database.db.delete(permissions).where(eq(permissions.code, 'audit.read'));
    await seed(database.db);
    const [restored] = await database.db
      .select({ id: permissions.id, isSystem: permissions.isSystem })
      .from(permissions)
      .where(eq(permissions.code, 'audit.read'));
    expect(restored?.isSystem).toBe(true);
    const grants = await database.db
      .select()
      .from(rolePermissions)
      .innerJoin(roles, and(eq(roles.id, rolePermissions.roleId), eq(roles.name, 'Administrator')));
    expect(grants).toHaveLength(SYSTEM_PERMISSION_CODES.length);
  });

  it('uses DEMO_ADMIN_PASSWORD when given', async () => {
    const other = await openDatabase({ DATA_DIR: os.tmpdir(), pglite: await emptyPglite() });
    try {
      const result = await seed(other.db, 'demo-password-from-env');
      expect(result).toEqual({ created: true });
      const [admin] = await other.db.select().from(users);
      expect(await verifyPassword(admin?.passwordHash ?? null, 'demo-password-from-env')).toBe(
        true,
      );
    } finally {
      await other.close();
    }
  });
});

describe('PGlite data folder', () => {
  it('is held by one process: a second open from another process is refused, a stale lock is taken over', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-lock-'));
    const folder = path.join(dataDir, 'portal-db');
    await copyEmptyCluster(folder);
    // A live process (our parent) holding the lock: refused, with a message naming folder and pid.
    fs.writeFileSync(`${folder}.lock`, String(process.ppid));
    await expect(openDatabase({ DATA_DIR: dataDir })).rejects.toThrow(
      new RegExp(`in use by process ${process.ppid}.*DATABASE_URL`),
    );
    // A dead holder's lock is stale: taken over.
    fs.writeFileSync(`${folder}.lock`, '999999999');
    const opened = await openDatabase({ DATA_DIR: dataDir });
    expect(fs.readFileSync(`${folder}.lock`, 'utf8')).toBe(String(process.pid));
    await opened.close();
    expect(fs.existsSync(`${folder}.lock`)).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a company made before the first start (admin taken) means no demo, and starting succeeds', async () => {
    const fresh = await openDatabase({ DATA_DIR: os.tmpdir(), pglite: await emptyPglite() });
    try {
      await createCompany(fresh.db, {
        name: 'Acme',
        admin: {
          userName: 'admin',
          email: 'boss@acme.test',
          userFirstName: 'Ada',
          userLastName: 'Boss',
          passwordHash: await hashPassword('acme-admin-passphrase'),
        },
      });
      const result = await seed(fresh.db, 'a-demo-password-here');
      expect(result).toEqual({ created: false, demoCompany: false });
      const names = (await fresh.db.select({ name: companies.name }).from(companies)).map(
        (c) => c.name,
      );
      expect(names).toEqual(['Acme']);
      // Its Administrator role still gets every system permission, as on every start.
      expect((await counts(fresh)).permissions).toBe(SYSTEM_PERMISSION_CODES.length);
      // And again on the next start.
      expect(await seed(fresh.db)).toEqual({ created: false, demoCompany: false });
    } finally {
      await fresh.close();
    }
  });
});
