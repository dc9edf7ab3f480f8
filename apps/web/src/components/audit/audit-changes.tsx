import type { AuditEvent } from '@pa/contracts/audit';

const show = (value: unknown) =>
  value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** The before/after of one event, field by field (only changed fields are recorded). */
export function AuditChanges({ event }: { event: AuditEvent }) {
  const fields = [
    ...new Set([...Object.keys(event.before ?? {}), ...Object.keys(event.after ?? {})]),
  ];
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
            <th scope="row" className="py-1 pr-2 font-mono text-xs font-normal">
              {field}
            </th>
            <td className="py-1 pr-2 break-all text-muted-foreground">
              {show(event.before?.[field])}
            </td>
            <td className="py-1 break-all">{show(event.after?.[field])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
