import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useListAuditEventsQuery } from '@/lib/api/company-api';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { ExactTime } from '@/components/relative-time';
import { AuditChanges } from './audit-changes';
import { actionLabel } from './audit-words';

/** The latest audit events about one record (shown to those holding `audit.read`). */
export function RecentEvents({ entityId }: { entityId: string }) {
  const allowed = useMissingPermissions('audit.read').length === 0;
  const { data, isLoading, error } = useListAuditEventsQuery(
    { page: 1, pageSize: 5, search: undefined, sort: undefined, filters: { entityId } },
    { skip: !allowed, refetchOnMountOrArgChange: true },
  );
  if (!allowed) return null;
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg leading-none font-semibold">Recent changes</h2>
        <CardDescription>
          The latest events about this record.{' '}
          <Link
            to={`/app/company/audit?filters%5BentityId%5D=${entityId}`}
            className="underline underline-offset-4"
          >
            All of them in the audit trail
          </Link>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {isLoading ? <Skeleton className="h-16 w-full" /> : null}
        {error ? <p className="text-sm text-destructive">Could not load the events.</p> : null}
        {data && data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No events yet.</p>
        ) : null}
        <ol className="grid gap-3">
          {data?.items.map((event) => (
            <li key={event._id} className="grid gap-2 rounded-md border p-3">
              <p className="text-sm">
                <span className="font-medium">{actionLabel(event.action)}</span> by{' '}
                <span className="font-medium">{event.actorName}</span> ·{' '}
                <span className="text-muted-foreground">
                  <ExactTime iso={event.createdAt} />
                </span>
              </p>
              {/* the table wraps its values rather than scrolling (a scrolling box must take focus) */}
              <AuditChanges event={event} />
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
