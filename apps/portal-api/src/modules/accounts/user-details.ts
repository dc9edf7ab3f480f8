import { and, eq } from 'drizzle-orm';
import type { PortalTx } from '../../db/client';
import { companies, roles, userRoles, users } from '../../db/schema';
import { effectivePermissionCodes } from '../auth/effective-permissions';

export interface UserDetails {
  _id: string;
  userName: string;
  email: string;
  userFirstName: string;
  userLastName: string;
  phone: string;
  status: string;
  companyId: string;
  companyName: string;
  roles: { _id: string; name: string }[];
  permissions: string[];
  lastSignInAt: string | null;
}

/**
 * The account details the sign-in and verify answers carry (docs/product/services.md §4), or null when gone.
 * `permissions` may be passed when the caller just read them (the auth plugin did, on this request).
 */
export async function loadUserDetails(
  db: PortalTx,
  userId: string,
  permissions?: Iterable<string>,
): Promise<UserDetails | null> {
  const [user] = await db
    .select({
      _id: users.id,
      userName: users.userName,
      email: users.email,
      userFirstName: users.userFirstName,
      userLastName: users.userLastName,
      phone: users.phone,
      status: users.status,
      companyId: users.companyId,
      companyName: companies.name,
      lastSignInAt: users.lastSignInAt,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId));
  if (!user) return null;
  const [roleRows, codes] = await Promise.all([
    db
      .select({ _id: roles.id, name: roles.name })
      .from(roles)
      .innerJoin(userRoles, and(eq(userRoles.roleId, roles.id), eq(userRoles.userId, userId)))
      .orderBy(roles.name),
    permissions ? [...permissions].sort() : effectivePermissionCodes(db, userId, user.companyId),
  ]);
  return {
    ...user,
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    roles: roleRows,
    permissions: codes,
  };
}
