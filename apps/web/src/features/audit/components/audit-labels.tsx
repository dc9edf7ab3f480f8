import { Link } from 'react-router';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, type AuditEvent } from '@pa/contracts/audit';

/** Every action the portal records (the portal can record no other), for the trail's filter. */
export const AUDIT_ACTION_CHOICES = AUDIT_ACTIONS.map((value) => ({ value, label: value }));

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
