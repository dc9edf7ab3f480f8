import { conflict } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { recordAudit, type AuditActor } from '../audit/record';
import type { Actor } from '../roles/guards';
import { assertMayManageUser, getUser } from './users';

/**
 * Whether an administrator may mail user `id` the forgot-password flow's reset link: 404 and 403 as
 * for editing them (the link would hand over their account), 409 when they are not active (it would
 * not let them sign in). Records `user.password-reset-link` and answers the address to mail.
 */
export async function approveResetLink(
  db: PortalDb,
  actor: Actor,
  id: string,
  audit: AuditActor,
): Promise<string> {
  await assertMayManageUser(db, actor, id, 'send this user a password reset link');
  const user = await getUser(db, actor.companyId, id);
  if (user.status !== 'active') {
    throw conflict(
      `${user.userName} is ${user.status}: a reset link would not let them sign in. Make them active first.`,
    );
  }
  await recordAudit(db, {
    ...audit,
    action: 'user.password-reset-link',
    entityType: 'user',
    entityId: id,
    after: { email: user.email },
  });
  return user.email;
}
