import type { AuditEvent } from '@pa/contracts/audit';

/** Bookkeeping fields that say nothing to a reader of the trail. */
const HIDDEN = new Set([
  'version',
  '_id',
  'id',
  'companyId',
  'searchText',
  'createdAt',
  'updatedAt',
]);

const LABELS: Record<string, string> = {
  userName: 'User name',
  userFirstName: 'First name',
  userLastName: 'Last name',
  roleIds: 'Roles',
  permissionIds: 'Permissions',
  isSystem: 'System',
};

/** `lastSignInAt` → "Last sign in at". */
export const fieldLabel = (field: string) =>
  LABELS[field] ??
  field
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/ (\w)/g, (_, c: string) => ` ${c.toLowerCase()}`);

/** A before/after value in words: ids as the names the server gave, yes/no, "—" for nothing. */
export function auditValue(value: unknown, names: Record<string, string>): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value))
    return (
      value
        .map((item) =>
          typeof item === 'string' ? (names[item] ?? `deleted (${item.slice(-8)})`) : String(item),
        )
        .join(', ') || 'none'
    );
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The before/after of one event, field by field (only changed fields are recorded). */
export function AuditChanges({ event }: { event: AuditEvent }) {
  const fields = [
    ...new Set([...Object.keys(event.before ?? {}), ...Object.keys(event.after ?? {})]),
  ].filter((field) => !HIDDEN.has(field));
  if (fields.length === 0)
    return <p className="text-sm text-muted-foreground">No field changes recorded.</p>;
  return (
    <table className="w-full text-left text-sm" aria-label="Changed fields">
      <thead>
        <tr className="border-b">
          <th className="py-1 pr-2 font-medium">Field</th>
          <th className="py-1 pr-2 font-medium">Before</th>
          <th className="py-1 font-medium">After</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field} className="border-b align-top last:border-0">
            <th scope="row" className="py-1 pr-2 font-normal">
              {fieldLabel(field)}
            </th>
            <td className="py-1 pr-2 break-words text-muted-foreground">
              {auditValue(event.before?.[field], event.names)}
            </td>
            <td className="py-1 break-words">{auditValue(event.after?.[field], event.names)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
