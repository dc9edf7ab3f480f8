import type { PermissionCode } from '@pa/contracts/permission-codes';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, permissions, roles } from '../src/db/schema';
import { recordAudit } from '../src/modules/audit/record';
import { SYSTEM_PERMISSION_CODES } from '../src/modules/companies/system-permissions';
import { buildTestApp, DATABASES, type TestApp } from './helper';

describe.each(DATABASES)('database layer and auth plugin on %s', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      database,
      routes: (app) => {
        app.get(
          '/api/test/needs-users-read',
          { preHandler: [app.authenticate, app.requirePermission('users.read')] },
          async (request) => ({
            userName: request.auth?.userName,
            count: request.auth?.permissions.size,
          }),
        );
        app.get(
          '/api/test/needs-unknown',
          {
            preHandler: [
              app.authenticate,
              app.requirePermission('nobody.has.this' as PermissionCode),
            ],
          },
          async () => ({ ok: true }),
        );
      },
    });
  });
  afterAll(() => t?.close());

  it('seeds the system permissions and the Administrator role holding them', async () => {
    const codes = await t.db.select({ code: permissions.code }).from(permissions);
    expect(codes.map((c) => c.code).sort()).toEqual([...SYSTEM_PERMISSION_CODES].sort());
    const [admin] = await t.db.select().from(roles);
    expect(admin).toMatchObject({ name: 'Administrator', isSystem: true });
  });

  it('is ready when the database answers', async () => {
    const ready = await t.app.inject({ url: '/api/ready/' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data.checks).toEqual([
      expect.objectContaining({ name: 'database', ok: true }),
    ]);
  });

  it('authenticates a bearer token and checks permissions', async () => {
    const headers = await t.authHeader();
    const okResponse = await t.app.inject({ url: '/api/test/needs-users-read', headers });
    expect(okResponse.statusCode).toBe(200);
    expect(okResponse.json()).toEqual({ userName: 'admin', count: SYSTEM_PERMISSION_CODES.length });
    const forbidden = await t.app.inject({ url: '/api/test/needs-unknown', headers });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
    const anonymous = await t.app.inject({ url: '/api/test/needs-users-read' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  });

  it('records audit events without secrets', async () => {
    await recordAudit(t.db, {
      companyId: t.company.companyId,
      actorId: t.company.adminId,
      action: 'user.update',
      entityType: 'user',
      entityId: t.company.adminId,
      before: { email: 'a@b.c', passwordHash: 'x' },
      after: { email: 'd@e.f', password: 'secret-value', refreshToken: 'r' },
    });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'user.update'`);
    expect(event).toMatchObject({ before: { email: 'a@b.c' }, after: { email: 'd@e.f' } });
    expect(JSON.stringify(event)).not.toContain('secret-value');
  });

  it('creates a second company with its own system access', async () => {
    const other = await t.createCompany('Acme');
    expect(other.companyId).not.toBe(t.company.companyId);
    const rows = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(permissions)
      .where(sql`${permissions.companyId} = ${other.companyId}`);
    expect(rows[0]?.n).toBe(SYSTEM_PERMISSION_CODES.length);
  });
});
