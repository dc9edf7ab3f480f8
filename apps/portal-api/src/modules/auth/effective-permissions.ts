import { and, eq, inArray, or } from 'drizzle-orm';
import type { PortalTx } from '../../db/client';
import { permissions, rolePermissions, userPermissions, userRoles } from '../../db/schema';

/**
 * A user's effective permission codes: the union over their roles plus their direct permissions
 * (PRODUCT.md §3), read from the database so a change applies on the very next request.
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
