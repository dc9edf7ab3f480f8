import { and, eq, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PortalTx } from '../../db/client';
import { permissions, rolePermissions, userPermissions, userRoles } from '../../db/schema';

/**
 * A user's effective permission codes: the union over their roles plus their direct permissions
 * (docs/product/services.md §3), read from the database so a change applies on the very next request.
 */
export async function effectivePermissionCodes(
  db: PortalTx,
  userId: string,
  companyId: string,
): Promise<string[]> {
  const viaRoles = db
    .select({ id: rolePermissions.permissionId })
    .from(rolePermissions)
    .innerJoin(userRoles, eq(userRoles.roleId, rolePermissions.roleId))
    .where(eq(userRoles.userId, userId));
  const direct = db
    .select({ id: userPermissions.permissionId })
    .from(userPermissions)
    .where(eq(userPermissions.userId, userId));
  const rows = await db
    .selectDistinct({ code: permissions.code })
    .from(permissions)
    .where(
      and(
        eq(permissions.companyId, companyId),
        or(inArray(permissions.id, viaRoles), inArray(permissions.id, direct)),
      ),
    )
    .orderBy(permissions.code);
  return rows.map((row) => row.code);
}

/**
 * The same set as a SQL expression (text[] of codes, sorted) for a user id column, so a caller can
 * read it in the same query as the user (the auth plugin's single round trip per request).
 */
export function effectivePermissionsSql(userId: AnyColumn, companyId: AnyColumn): SQL<string[]> {
  return sql<string[]>`array(
    select distinct p.code from ${permissions} p
    where p.company_id = ${companyId}
      and (p.id in (select rp.permission_id from ${rolePermissions} rp
                    join ${userRoles} ur on ur.role_id = rp.role_id where ur.user_id = ${userId})
        or p.id in (select up.permission_id from ${userPermissions} up where up.user_id = ${userId}))
    order by p.code)`;
}
