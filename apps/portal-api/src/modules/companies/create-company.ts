import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PortalDb, PortalTx } from '../../db/client';
import { companies, permissions, rolePermissions, roles, userRoles, users } from '../../db/schema';
import { recordAudit } from '../audit/record';
import { ADMINISTRATOR_ROLE, SYSTEM_PERMISSIONS } from './system-permissions';

/**
 * Gives a company every system permission and an `Administrator` system role holding all of them.
 * Idempotent: run for every company at each start, so a new system permission reaches old companies.
 * Returns the Administrator role's id.
 */
export async function ensureSystemAccess(db: PortalTx, companyId: string): Promise<string> {
  await db
    .insert(permissions)
    .values(
      SYSTEM_PERMISSIONS.map((p) => ({
        companyId,
        code: p.code,
        name: p.name,
        group: p.group,
        description: `${p.name} (system permission).`,
        isSystem: true,
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(roles)
    .values({
      companyId,
      name: ADMINISTRATOR_ROLE,
      description: 'Holds every system permission. Cannot be deleted.',
      isSystem: true,
    })
    .onConflictDoNothing();
  const [role] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.companyId, companyId),
        eq(roles.isSystem, true),
        eq(sql`lower(${roles.name})`, ADMINISTRATOR_ROLE.toLowerCase()),
      ),
    );
  if (!role)
    throw new Error(`Company ${companyId} has a non-system role named ${ADMINISTRATOR_ROLE}.`);
  const systemIds = await db
    .select({ id: permissions.id })
    .from(permissions)
    .where(
      and(
        eq(permissions.companyId, companyId),
        inArray(
          permissions.code,
          SYSTEM_PERMISSIONS.map((p) => p.code),
        ),
      ),
    );
  await db
    .insert(rolePermissions)
    .values(systemIds.map((p) => ({ roleId: role.id, permissionId: p.id, companyId })))
    .onConflictDoNothing();
  return role.id;
}

export interface NewCompany {
  name: string;
  admin: {
    userName: string;
    email: string;
    passwordHash: string;
    userFirstName?: string;
    userLastName?: string;
  };
}

export interface CreatedCompany {
  created: boolean;
  companyId: string;
  adminUserId: string | null;
}

/**
 * Creates a company with its system permissions, Administrator role and first administrator, in one
 * transaction. Idempotent by name (case-insensitive): an existing company is returned untouched.
 * A user name or email already taken (they are unique across companies) fails with a clear error.
 */
export async function createCompany(db: PortalDb, input: NewCompany): Promise<CreatedCompany> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: companies.id })
      .from(companies)
      .where(eq(sql`lower(${companies.name})`, input.name.trim().toLowerCase()));
    if (existing) return { created: false, companyId: existing.id, adminUserId: null };

    const taken = await tx
      .select({ userName: users.userName, email: users.email })
      .from(users)
      .where(
        sql`lower(${users.userName}) = ${input.admin.userName.toLowerCase()} or lower(${users.email}) = ${input.admin.email.toLowerCase()}`,
      );
    if (taken.length > 0) {
      throw new Error(
        `The user name "${input.admin.userName}" or email "${input.admin.email}" is already used by another account.`,
      );
    }

    const [company] = await tx.insert(companies).values({ name: input.name.trim() }).returning();
    if (!company) throw new Error('company insert returned nothing');
    const roleId = await ensureSystemAccess(tx, company.id);
    const [admin] = await tx
      .insert(users)
      .values({
        companyId: company.id,
        userName: input.admin.userName,
        email: input.admin.email.toLowerCase(),
        userFirstName: input.admin.userFirstName ?? 'Company',
        userLastName: input.admin.userLastName ?? 'Administrator',
        passwordHash: input.admin.passwordHash,
      })
      .returning({ id: users.id });
    if (!admin) throw new Error('user insert returned nothing');
    await tx.insert(userRoles).values({ userId: admin.id, roleId, companyId: company.id });
    await recordAudit(tx, {
      companyId: company.id,
      actorName: 'system',
      action: 'company.create',
      entityType: 'company',
      entityId: company.id,
      after: { name: company.name, adminUserName: input.admin.userName },
    });
    return { created: true, companyId: company.id, adminUserId: admin.id };
  });
}
