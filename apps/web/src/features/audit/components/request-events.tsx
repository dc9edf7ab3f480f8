import type { AuditEvent } from '@pa/contracts/audit';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { actionLabel } from '@/components/audit/audit-words';
import { Button } from '@/components/ui/button';
import { useListAuditEventsQuery } from '@/lib/api/company-api';
import { EntityLink } from './audit-labels';

/** As many events as one request can record that the entry lists (a bulk change takes ≤ 1,000). */
const LISTED = 100;

/**
 * The other events of one request under its entry (a bulk change of 45 users is one entry, not 45
 * rows): a disclosure button, then each event's action and entity, read when first opened.
 */
export function RequestEvents({ event }: { event: AuditEvent }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const more = event.requestEvents - 1;
  if (!event.requestId || more < 1) return null;
  return (
    <div className="grid gap-1">
      <Button
        variant="ghost"
        size="sm"
        className="h-auto min-h-7 justify-start px-1 text-left text-xs whitespace-normal"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        {open ? <ChevronDown aria-hidden="true" /> : <ChevronRight aria-hidden="true" />}
        {open ? 'Hide' : 'Show'} all {event.requestEvents} events of this change
      </Button>
      {open ? <RequestEventList id={listId} requestId={event.requestId} /> : null}
    </div>
  );
}

function RequestEventList({ id, requestId }: { id: string; requestId: string }) {
  const { data, isLoading, error } = useListAuditEventsQuery({
    page: 1,
    pageSize: LISTED,
    search: undefined,
    sort: '_id:asc',
    filters: { requestId },
  });
  if (isLoading) return <p className="text-xs text-muted-foreground">Loading the events…</p>;
  if (error || !data) return <p className="text-xs text-destructive">Could not load the events.</p>;
  return (
    <ul id={id} aria-label="Events of this change" className="grid gap-0.5 text-xs">
      {data.items.map((one) => (
        <li key={one._id} className="wrap-anywhere">
          {actionLabel(one.action)}: <EntityLink event={one} />
        </li>
      ))}
      {data.total > data.items.length ? (
        <li>
          <Link
            to={`/app/company/audit?filters%5BrequestId%5D=${requestId}`}
            className="underline underline-offset-4"
          >
            All {data.total} events of this change
          </Link>
        </li>
      ) : null}
    </ul>
  );
}
