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
  amr: 'Proven with',
};

/** Values of a field said in words (`amr`: how a sign-in was proven, RFC 8176's codes). */
const VALUE_WORDS: Record<string, Record<string, string>> = {
  amr: { pwd: 'password', otp: 'one-time code', hwk: 'passkey' },
};

/** Ids of records (roles, permissions) are UUIDs; other strings in a list are values. */
const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `lastSignInAt` → "Last sign in at". */
export const fieldLabel = (field: string) =>
  LABELS[field] ??
  field
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/ (\w)/g, (_, c: string) => ` ${c.toLowerCase()}`);

/**
 * A before/after value of `field` in words: record ids as the names the server gave (a missing name:
 * the record was deleted), yes/no, known codes in words, "—" for nothing.
 */
export function auditValue(field: string, value: unknown, names: Record<string, string>): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const words = VALUE_WORDS[field] ?? {};
  if (Array.isArray(value))
    return (
      value
        .map((one) => {
          if (typeof one !== 'string') return String(one);
          // the lists of ids (roles, permissions): a name, or the record is gone
          if (RECORD_ID.test(one)) return names[one] ?? `deleted (${one.slice(-8)})`;
          return words[one] ?? one;
        })
        .join(', ') || 'none'
    );
  return typeof value === 'string' ? (words[value] ?? value) : JSON.stringify(value);
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
              {auditValue(field, event.before?.[field], event.names)}
            </td>
            <td className="py-1 break-words">
              {auditValue(field, event.after?.[field], event.names)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
