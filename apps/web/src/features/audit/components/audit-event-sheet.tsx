import type { AuditEvent } from '@pa/contracts/audit';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '@/components/ui/sheet';
import { AuditChanges } from '@/components/audit/audit-changes';
import { actionLabel, entityLabel } from '@/components/audit/audit-words';
import { ExactTime } from '@/components/relative-time';

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
              <SheetTitle>{actionLabel(event.action)}</SheetTitle>
              <SheetDescription>
                <span className="font-mono">{event.action}</span> · {event.actorName} ·{' '}
                <ExactTime iso={event.createdAt} />
              </SheetDescription>
            </SheetHeader>
            <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Entity</dt>
              <dd className="break-all">{entityLabel(event)}</dd>
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
