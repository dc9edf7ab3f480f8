import { Link } from 'react-router';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, type AuditEvent } from '@pa/contracts/audit';
import { ACTION_LABELS, actionLabel, entityLabel } from '@/components/audit/audit-words';

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

/**
 * An action as the trail shows it: in words, its code beneath (the code is what exports carry).
 * On a narrow screen, where the Who and Entity columns are left out, who and what stack beneath it.
 */
export function ActionCell({ event }: { event: AuditEvent }) {
  return (
    <span className="flex min-w-0 flex-col whitespace-normal">
      <span>{actionLabel(event.action)}</span>
      <span className="font-mono text-xs text-muted-foreground max-sm:hidden">{event.action}</span>
      <span className="text-xs text-muted-foreground wrap-anywhere sm:hidden">
        {event.actorName} · {entityLabel(event)}
      </span>
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

/** The entity of an event, linked to its page while it exists (deleted ones answer "not found"). */
export function EntityLink({ event }: { event: AuditEvent }) {
  const base = PAGES[event.entityType];
  const label = entityLabel(event);
  // long names (an email) wrap, so the trail fits its area
  if (!base || !event.entityId || event.action.endsWith('.delete'))
    return <span className="whitespace-normal wrap-anywhere">{label}</span>;
  return (
    <Link
      to={`${base}/${event.entityId}/read`}
      className="whitespace-normal wrap-anywhere underline-offset-4 hover:underline"
    >
      {label}
    </Link>
  );
}
