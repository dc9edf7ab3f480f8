import { and, eq, ne, sql } from 'drizzle-orm';
import type { UpdateMeBody } from '@pa/contracts/accounts';
import { conflict, notFound } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { users } from '../../db/schema';
import { changedFields, recordAudit, type AuditActor } from '../audit/record';

/**
 * A user edits their own first name, last name or email (never roles or status): one transaction,
 * an audit event with what changed, nothing written when nothing changed.
 */
export async function updateOwnAccount(
  db: PortalDb,
  userId: string,
  body: UpdateMeBody,
  audit: AuditActor,
): Promise<void> {
  const patch = { ...body, email: body.email?.toLowerCase() };
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        userFirstName: users.userFirstName,
        userLastName: users.userLastName,
        email: users.email,
      })
      .from(users)
      .where(eq(users.id, userId));
    if (!before) throw notFound('The account');
    if (patch.email && patch.email !== before.email) {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(sql`lower(${users.email})`, patch.email), ne(users.id, userId)));
      if (taken) throw conflict('This email is already used by another account.');
    }
    const after = {
      userFirstName: patch.userFirstName ?? before.userFirstName,
      userLastName: patch.userLastName ?? before.userLastName,
      email: patch.email ?? before.email,
    };
    const diff = changedFields(before, after);
    if (Object.keys(diff.after).length === 0) return;
    await tx
      .update(users)
      .set({ ...after, updatedAt: new Date(), version: sql`${users.version} + 1` })
      .where(eq(users.id, userId));
    await recordAudit(tx, {
      ...audit,
      action: 'account.update',
      entityType: 'user',
      entityId: userId,
      ...diff,
    });
  });
}
