import type { AuditAction, AuditEvent } from '@pa/contracts/audit';

/** What each recorded action means, in words (a new action does not compile without one). */
export const ACTION_LABELS: Record<AuditAction, string> = {
  'user.create': 'User created',
  'user.update': 'User changed',
  'user.delete': 'User deleted',
  'user.restore': 'User restored',
  'user.import': 'Users imported',
  'user.revoke-sessions': "User's sign-ins ended",
  'user.password-reset-link': 'Password reset link sent',
  'user.second-step-reset': "User's second step removed",
  'role.create': 'Role created',
  'role.update': 'Role changed',
  'role.delete': 'Role deleted',
  'role.restore': 'Role restored',
  'permission.create': 'Permission created',
  'permission.update': 'Permission changed',
  'permission.delete': 'Permission deleted',
  'permission.restore': 'Permission restored',
  'invitation.create': 'Invitation sent',
  'invitation.resend': 'Invitation sent again',
  'invitation.revoke': 'Invitation withdrawn',
  'invitation.accept': 'Invitation accepted',
  'account.sign-in': 'Signed in',
  'account.sign-in-failed': 'Sign-in failed',
  'account.second-step-failed': 'Second step failed',
  'account.recovery-code-used': 'Recovery code used',
  'account.sign-out': 'Signed out',
  'account.update': 'Own details changed',
  'account.password-change': 'Password changed',
  'account.password-reset': 'Password reset',
  'account.password-check-failed': 'Wrong current password',
  'account.email-change-undone': 'Email change undone',
  'account.mfa-enrolled': 'Authenticator app turned on',
  'account.mfa-disabled': 'Authenticator app turned off',
  'account.recovery-codes-renewed': 'New recovery codes',
  'account.passkey-added': 'Passkey added',
  'account.passkey-renamed': 'Passkey renamed',
  'account.passkey-removed': 'Passkey removed',
  'session.revoke': 'Sign-in ended',
  'session.revoke-others': 'Other sign-ins ended',
  'company.create': 'Company created',
  'company.mfa-policy-change': 'Two-step policy changed',
  'access.denied': 'Access refused',
};

/** An action in words; an action this version does not know (an older trail's) as its code. */
export const actionLabel = (action: string) =>
  (ACTION_LABELS as Record<string, string | undefined>)[action] ?? action;

/** Each kind of entity in words. */
const ENTITY_WORDS: Record<string, string> = {
  user: 'user',
  role: 'role',
  permission: 'permission',
  invitation: 'invitation',
  passkey: 'passkey',
  session: 'sign-in',
  company: 'company',
  route: 'page',
};

/**
 * "role Auditors", "invitation ann@example.com": the entity's kind and the name the server gave it
 * (a person knows a name, not an id). A sign-in has no name; an entity whose name is lost (deleted
 * before names were kept) says so instead of showing its id.
 */
export function entityLabel(event: Pick<AuditEvent, 'entityType' | 'entityName' | 'entityId'>) {
  const kind = ENTITY_WORDS[event.entityType] ?? event.entityType;
  if (event.entityName) return `${kind} ${event.entityName}`;
  if (event.entityType === 'session') return 'a sign-in';
  return event.entityId ? `${kind} (no longer there)` : kind;
}
