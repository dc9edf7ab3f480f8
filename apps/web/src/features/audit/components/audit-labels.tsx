import { Link } from 'react-router';
import type { AuditEvent } from '@pa/contracts/audit';

/** The actions the portal records (docs/reference/portal-api.md "Company administration API"). */
export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.delete',
  'user.revoke-sessions',
  'role.create',
  'role.update',
  'role.delete',
  'permission.create',
  'permission.update',
  'permission.delete',
  'account.sign-in',
  'account.sign-in-failed',
  'account.sign-out',
  'account.update',
  'account.password-change',
  'account.password-reset',
  'account.password-check-failed',
  'account.email-change-undone',
  'session.revoke',
  'session.revoke-others',
  'company.create',
  'access.denied',
].map((value) => ({ value, label: value }));

export const AUDIT_ENTITIES = ['user', 'role', 'permission', 'session', 'company', 'route'].map(
  (value) => ({
    value,
    label: value[0]!.toUpperCase() + value.slice(1),
  }),
);

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
