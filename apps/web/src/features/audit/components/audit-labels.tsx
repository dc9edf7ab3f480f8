import { Link } from 'react-router';
import {
  AUDIT_ACTIONS,
  AUDIT_ENTITY_TYPES,
  type AuditAction,
  type AuditEvent,
} from '@pa/contracts/audit';

/** What each recorded action means, in words (a new action does not compile without one). */
const ACTION_LABELS: Record<AuditAction, string> = {
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

/** The filter's headings: what the actions of each kind are about (the code's first part). */
const ACTION_GROUPS: Record<string, string> = {
  user: 'Users',
  role: 'Roles',
  permission: 'Permissions',
  invitation: 'Invitations',
  account: 'Own account and sign-in',
  session: 'Sign-ins ended',
  company: 'Company',
  access: 'Access',
};

/**
 * Every action the portal records (the portal can record no other), for the trail's filter, under
 * a heading per kind: 41 in one list are hard to scan.
 */
export const AUDIT_ACTION_CHOICES = AUDIT_ACTIONS.map((value) => {
  const kind = value.slice(0, value.indexOf('.'));
  return { value, label: `${ACTION_LABELS[value]} (${value})`, group: ACTION_GROUPS[kind] ?? kind };
});

/** An action as the trail shows it: in words, its code beneath (the code is what exports carry). */
export function ActionCell({ action }: { action: string }) {
  return (
    <span className="flex flex-col">
      <span>{actionLabel(action)}</span>
      <span className="text-muted-foreground font-mono text-xs">{action}</span>
    </span>
  );
}

export const AUDIT_ENTITY_CHOICES = AUDIT_ENTITY_TYPES.map((value) => ({
  value,
  label: value[0]!.toUpperCase() + value.slice(1),
}));

const PAGES: Record<string, string> = {
  user: '/app/company/users',
  role: '/app/company/roles',
  permission: '/app/company/permissions',
};

/** "role Auditors": the entity's type and name (the id's end when the server knows no name). */
export const entityLabel = (event: AuditEvent) =>
  `${event.entityType}${event.entityName ? ` ${event.entityName}` : event.entityId ? ` ${event.entityId.slice(-8)}` : ''}`;

/** The entity of an event, linked to its page while it exists (deleted ones answer "not found"). */
export function EntityLink({ event }: { event: AuditEvent }) {
  const base = PAGES[event.entityType];
  const label = entityLabel(event);
  if (!base || !event.entityId || event.action.endsWith('.delete')) return <span>{label}</span>;
  return (
    <Link to={`${base}/${event.entityId}/read`} className="underline-offset-4 hover:underline">
      {label}
    </Link>
  );
}
