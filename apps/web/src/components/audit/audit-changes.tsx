import type { AuditEvent } from '@pa/contracts/audit';
import { ExactTime } from '@/components/relative-time';

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
  permissionCodes: 'Permissions',
  isSystem: 'System',
  amr: 'Proven with',
  totp: 'Authenticator app',
  method: 'Second step',
  enforced: 'Asked for by the company',
  invitationId: 'Invitation',
  expiresAt: 'Expires',
  requireFor: 'Two-step sign-in for',
  enrolmentRequired: 'Must set up a second step',
  adminUserName: 'Administrator',
  signInsEnded: 'Sign-ins ended',
  otherSignInsEnded: 'Other sign-ins ended',
};

/** Values of a field said in words (`amr`: how a sign-in was proven, RFC 8176's codes). */
const VALUE_WORDS: Record<string, Record<string, string>> = {
  amr: { pwd: 'password', otp: 'one-time code', hwk: 'passkey' },
  method: { totp: 'authenticator app', passkey: 'passkey' },
};

/** What an id that names nothing any more was, by its field. */
const GONE: Record<string, string> = {
  roleIds: 'a deleted role',
  permissionIds: 'a deleted permission',
  invitationId: 'an invitation no longer there',
};

/** An instant as the server writes it (`2026-12-06T01:41:25.503Z`). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Ids of records (roles, permissions, invitations) are UUIDs; other strings are values. */
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
 * the record was deleted — never the id), yes/no, known codes in words, "—" for nothing. Instants
 * are shown by `AuditValue` in the viewer's locale.
 */
export function auditValue(field: string, value: unknown, names: Record<string, string>): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const words = VALUE_WORDS[field] ?? {};
  const inWords = (one: string) => {
    // ids (roles, permissions, an invitation): a name, or the record is gone
    if (RECORD_ID.test(one)) return names[one] ?? GONE[field] ?? 'a record no longer there';
    return words[one] ?? one;
  };
  if (Array.isArray(value))
    return (
      value.map((one) => (typeof one === 'string' ? inWords(one) : String(one))).join(', ') ||
      'none'
    );
  return typeof value === 'string' ? inWords(value) : JSON.stringify(value);
}

/** One value of the table: an instant in the viewer's locale (exact on hover), else in words. */
function AuditValue(props: { field: string; value: unknown; names: Record<string, string> }) {
  if (typeof props.value === 'string' && INSTANT.test(props.value))
    return <ExactTime iso={props.value} />;
  return <>{auditValue(props.field, props.value, props.names)}</>;
}

/** The before/after of one event, field by field (only changed fields are recorded). */
export function AuditChanges({ event }: { event: AuditEvent }) {
  const fields = [
    ...new Set([...Object.keys(event.before ?? {}), ...Object.keys(event.after ?? {})]),
  ].filter((field) => !HIDDEN.has(field));
  if (fields.length === 0)
    return <p className="text-sm text-muted-foreground">No field changes recorded.</p>;
  return (
    <table className="w-full table-fixed text-left text-sm" aria-label="Changed fields">
      <thead>
        <tr className="border-b">
          <th className="w-1/3 py-1 pr-2 font-medium max-sm:w-28">Field</th>
          <th className="py-1 pr-2 font-medium">Before</th>
          <th className="py-1 font-medium">After</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field} className="border-b align-top last:border-0">
            <th scope="row" className="py-1 pr-2 font-normal break-words">
              {fieldLabel(field)}
            </th>
            <td className="py-1 pr-2 text-muted-foreground wrap-anywhere">
              <AuditValue field={field} value={event.before?.[field]} names={event.names} />
            </td>
            <td className="py-1 wrap-anywhere">
              <AuditValue field={field} value={event.after?.[field]} names={event.names} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
