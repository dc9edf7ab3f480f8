import { PanelRightOpen } from 'lucide-react';
import { useMemo, useState } from 'react';
import { AUDIT_SORT_FIELDS, type AuditEvent } from '@pa/contracts/audit';
import { Button } from '@/components/ui/button';
import { companyApi, useListAuditEventsQuery, useListUsersQuery } from '@/lib/api/company-api';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { formatDateTime } from '@/lib/format';
import type { ListQueryArgs, ListUrlConfig } from '@/lib/list-url';
import { auditSlice } from '@/lib/list-view-slices';
import { column, csvFields, timeColumn } from '@/components/resource-list/columns';
import { ResourceList, type Facet } from '@/components/resource-list/resource-list';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { AuditEventSheet } from './audit-event-sheet';
import { DateFilterInput } from './date-filter-input';
import { RequestEvents } from './request-events';
import { ActionCell, AUDIT_ACTION_CHOICES, AUDIT_ENTITY_CHOICES, EntityLink } from './audit-labels';

export const AUDIT_URL: ListUrlConfig = {
  defaultSort: [],
  sortFields: AUDIT_SORT_FIELDS,
  filterKeys: ['action', 'entityType', 'entityId', 'actorId', 'from', 'to', 'requestId'],
};

/**
 * The list's query with one entry per request, unless it already asks for one record's or one
 * request's events (those list each of their events).
 */
const grouped = (args: ListQueryArgs): ListQueryArgs =>
  args.filters?.entityId || args.filters?.requestId
    ? args
    : { ...args, filters: { ...args.filters, group: 'request' } };

/** Users offered by the "Who" filter per search (the server searches all of them). */
const WHO_OPTIONS = 20;

/**
 * The "Who" filter: the company's users found by a search on the server as the user types, the
 * chosen ones keeping their names. Needs users.read (without it the filter is left out).
 */
function useActorFacet(): Facet | null {
  const canReadUsers = useMissingPermissions('users.read').length === 0;
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 300);
  const found = useListUsersQuery(
    {
      page: 1,
      pageSize: WHO_OPTIONS,
      sort: 'userName:asc',
      search: search || undefined,
      filters: undefined,
    },
    { skip: !canReadUsers },
  );
  const [known, setKnown] = useState<Record<string, string>>({});
  const items = found.data?.items;
  const options = useMemo(
    () => (items ?? []).map((u) => ({ value: u._id, label: u.userName })),
    [items],
  );
  // Chosen users stay named after the search moves on.
  if (options.some((o) => known[o.value] !== o.label))
    setKnown((old) => ({ ...old, ...Object.fromEntries(options.map((o) => [o.value, o.label])) }));
  if (!canReadUsers) return null;
  return {
    key: 'actorId',
    title: 'Who',
    options,
    search: { label: 'Search users', text, onText: setText, busy: found.isFetching },
    // a chosen user not among the answers so far (a link from elsewhere): never their id
    labelOf: (id) => known[id] ?? 'a chosen user',
  };
}

// narrow screens show who and what under the action instead (ActionCell)
const WIDE = 'max-sm:hidden';

const COLUMNS = [
  timeColumn<AuditEvent>('createdAt', 'When', { hideable: false }),
  column<AuditEvent>('actorName', 'Who', { className: WIDE }),
  column<AuditEvent>('action', 'Action', {
    cell: (event) => (
      <div className="grid gap-1">
        <ActionCell event={event} />
        <RequestEvents event={event} />
      </div>
    ),
  }),
  column<AuditEvent>('entityType', 'Entity', {
    cell: (event) => <EntityLink event={event} />,
    className: WIDE,
  }),
  column<AuditEvent>('ip', 'Address', { sortable: false, className: WIDE }),
];

export function AuditList() {
  const who = useActorFacet();
  const [open, setOpen] = useState<AuditEvent | null>(null);
  return (
    <>
      <ResourceList<AuditEvent>
        title="Audit trail"
        description="Who changed what in your company, when and from where."
        noun={['event', 'events']}
        basePath="/app/company/audit"
        slice={auditSlice}
        urlConfig={AUDIT_URL}
        useList={(args, options) =>
          // The trail grows with every change: always read it fresh when shown. One request's
          // events (a bulk change) are one entry, opened by RequestEvents.
          // eslint-disable-next-line react-hooks/rules-of-hooks -- called unconditionally, once per render
          useListAuditEventsQuery(grouped(args), { ...options, refetchOnMountOrArgChange: true })
        }
        endpoint={companyApi.endpoints.listAuditEvents}
        columns={COLUMNS}
        facets={[
          { key: 'action', title: 'Action', options: AUDIT_ACTION_CHOICES },
          { key: 'entityType', title: 'Entity', options: AUDIT_ENTITY_CHOICES },
          ...(who ? [who] : []),
        ]}
        toolbarExtra={(controls) => (
          <div className="flex flex-wrap items-center gap-2">
            {(['from', 'to'] as const).map((key) => (
              <DateFilterInput
                key={key}
                id={`audit-${key}`}
                label={key === 'from' ? 'From' : 'To'}
                value={controls.view.filters[key]}
                onCommit={(value) => controls.setFilter(key, value)}
              />
            ))}
          </div>
        )}
        csvColumns={[
          { header: 'id', value: (e) => e._id },
          ...csvFields<AuditEvent>(
            'createdAt',
            'actorName',
            'action',
            'entityType',
            'entityId',
            'ip',
          ),
          { header: 'before', value: (e) => (e.before ? JSON.stringify(e.before) : '') },
          { header: 'after', value: (e) => (e.after ? JSON.stringify(e.after) : '') },
        ]}
        permissions={{ read: 'audit.read' }}
        rowName={(e) => `${e.action} by ${e.actorName}`}
        renderRowActions={(event) => (
          <div className="flex justify-end">
            <Button
              variant="ghost"
              size="sm"
              className="h-8"
              onClick={() => setOpen(event)}
              aria-label={`Details of ${event.action} by ${event.actorName} at ${formatDateTime(event.createdAt)}`}
            >
              <PanelRightOpen aria-hidden="true" />
              {/* the icon alone on a narrow screen, where the action needs the room */}
              <span className="max-sm:sr-only">Details</span>
            </Button>
          </div>
        )}
        searchLabel="Search actor, action, entity"
      />
      <AuditEventSheet event={open} onClose={() => setOpen(null)} />
    </>
  );
}
