import { and, eq, inArray, sql } from 'drizzle-orm';
import { AppError, conflict, invalidField } from '@pa/server-kit/errors';
import { ErrorCode } from '@pa/contracts/error-codes';
import type { PortalTx } from '../../db/client';
import { companies, permissions, rolePermissions, roles } from '../../db/schema';

/**
 * The rules that keep a company administrable and stop escalation (docs/product/services.md §3): nobody grants a
 * permission they do not hold, nobody manages a user more powerful than themselves, and the company
 * always keeps an active user who can manage roles.
 */

/** The signed-in caller as the guards see them. */
export interface Actor {
  userId: string;
  companyId: string;
  permissions: Set<string>;
}

/** The permission that makes someone able to manage roles (the last one of them is protected). */
export const MANAGE_ROLES = 'roles.update';

/**
 * Serialises administration changes of one company (row lock on the company), so two concurrent
 * changes cannot each remove "the other" last role manager.
 */
export async function lockCompany(tx: PortalTx, companyId: string) {
  await tx.execute(
    sql`select id from ${companies} where ${companies.id} = ${companyId} for update`,
  );
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** Codes of the company's permissions with these ids; an id that is not one of them is a 400 on `field`. */
export async function codesOfPermissions(
  tx: PortalTx,
  companyId: string,
  ids: readonly string[],
  field = 'permissionIds',
): Promise<string[]> {
  const wanted = unique(ids);
  if (wanted.length === 0) return [];
  const rows = await tx
    .select({ id: permissions.id, code: permissions.code })
    .from(permissions)
    .where(and(eq(permissions.companyId, companyId), inArray(permissions.id, wanted)));
  if (rows.length !== wanted.length) {
    throw invalidField(field, 'One or more of these permissions do not exist in your company.');
  }
  return rows.map((row) => row.code);
}

/** The union of the codes these roles hold; a role id that is not the company's is a 400 on `field`. */
export async function codesOfRoles(
  tx: PortalTx,
  companyId: string,
  ids: readonly string[],
  field = 'roleIds',
): Promise<string[]> {
  const wanted = unique(ids);
  if (wanted.length === 0) return [];
  const found = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.companyId, companyId), inArray(roles.id, wanted)));
  if (found.length !== wanted.length) {
    throw invalidField(field, 'One or more of these roles do not exist in your company.');
  }
  const rows = await tx
    .selectDistinct({ code: permissions.code })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(inArray(rolePermissions.roleId, wanted));
  return rows.map((row) => row.code);
}

/** 403 unless the caller holds every code (what they grant, or what the user they manage holds). */
export function assertHolds(actor: Actor, codes: readonly string[], doing: string) {
  const missing = unique(codes)
    .filter((code) => !actor.permissions.has(code))
    .sort();
  if (missing.length > 0) {
    throw new AppError(
      ErrorCode.FORBIDDEN,
      `You cannot ${doing} because it involves permissions you do not hold yourself: ${missing.join(', ')}.`,
    );
  }
}

/** How many active users of the company can manage roles (through a role or directly). */
export async function countRoleManagers(tx: PortalTx, companyId: string): Promise<number> {
  const result = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n
    from users u
    where u.company_id = ${companyId}
      and u.status = 'active'
      and exists (
        select 1 from permissions p
        where p.company_id = ${companyId} and p.code = ${MANAGE_ROLES}
          and (
            exists (
              select 1 from user_roles ur
              join role_permissions rp on rp.role_id = ur.role_id
              where ur.user_id = u.id and rp.permission_id = p.id
            )
            or exists (
              select 1 from user_permissions up where up.user_id = u.id and up.permission_id = p.id
            )
          )
      )`);
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as {
    n: number;
  }[];
  return Number(rows[0]?.n ?? 0);
}

/**
 * Call inside the transaction, after the change: a 409 (rolling the change back) when it left the
 * company with nobody active who can manage roles.
 */
export async function assertSomeoneManagesRoles(tx: PortalTx, companyId: string) {
  if ((await countRoleManagers(tx, companyId)) === 0) {
    throw conflict(
      'This change would leave your company with nobody who can manage roles. Give that ability to another active user first.',
    );
  }
}
