import type { AuditEvent } from '@pa/contracts/audit';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '@/components/ui/sheet';
import { formatDateTime } from '../../lib/format';

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

export function AuditEventSheet({
  event,
  onClose,
}: {
  event: AuditEvent | null;
  onClose: () => void;
}) {
  return (
    <Sheet open={!!event} onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="w-full overflow-y-auto p-6 sm:max-w-lg">
        {event ? (
          <>
            <SheetHeader className="p-0">
              <SheetTitle className="font-mono">{event.action}</SheetTitle>
              <SheetDescription>
                {event.actorName} · {formatDateTime(event.createdAt)}
              </SheetDescription>
            </SheetHeader>
            <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Entity</dt>
              <dd className="break-all">
                {event.entityType} {event.entityId ?? ''}
              </dd>
              <dt className="text-muted-foreground">Address</dt>
              <dd>{event.ip || '—'}</dd>
              <dt className="text-muted-foreground">Browser</dt>
              <dd className="break-all">{event.userAgent || '—'}</dd>
            </dl>
            <AuditChanges event={event} />
          </>
        ) : null}
      </SheetContent>
    </Sheet>
  );
}
