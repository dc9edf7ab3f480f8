import { Pencil, Trash2 } from 'lucide-react';
import type * as React from 'react';
import { RecentEvents } from '@/components/audit/recent-events';
import { PageHeader } from '@/components/page-header';
import { GatedButton } from '@/components/permission-gate';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { formatDateTime } from '@/lib/format';
import { DetailList } from './detail-list';
import type { RecordResource } from './record-definition';

interface Stamped {
  _id: string;
  createdAt: string;
  updatedAt: string;
}

/** "System" or "Custom": built-in records are marked so on their page and in their list. */
export const SystemBadge = ({ system }: { system: boolean }) =>
  system ? <Badge>System</Badge> : <Badge variant="outline">Custom</Badge>;

/**
 * A record's read page: its name, Edit, the type's own actions and Delete, its fields (then Created
 * and Updated), what the type shows below them, and its recent audit events.
 */
export function RecordDetails<T extends Stamped>({
  resource,
  record,
  title,
  description,
  actionsLabel,
  actions,
  rows,
  children,
  audit = true,
  className = 'max-w-4xl',
}: {
  resource: RecordResource<T>;
  record: T;
  title: string;
  description?: React.ReactNode;
  actionsLabel?: string;
  /** Between Edit and Delete. */
  actions?: React.ReactNode;
  rows: [string, React.ReactNode][];
  children?: React.ReactNode;
  /** The record's recent events from the audit trail. */
  audit?: boolean;
  className?: string;
}) {
  const base = `${resource.listPath}/${record._id}`;
  return (
    <div className={`grid gap-6 ${className}`}>
      <PageHeader
        title={title}
        description={description}
        actionsLabel={actionsLabel}
        actions={
          <>
            <GatedButton need={resource.need.update} to={`${base}/update`} variant="outline">
              <Pencil aria-hidden="true" /> Edit
            </GatedButton>
            {actions}
            <GatedButton
              need={resource.need.delete}
              to={`${base}/delete`}
              variant="outline"
              className="text-destructive"
            >
              <Trash2 aria-hidden="true" /> Delete
            </GatedButton>
          </>
        }
      />
      <Card>
        <CardContent>
          <DetailList
            rows={[
              ...rows,
              ['Created', formatDateTime(record.createdAt)],
              ['Updated', formatDateTime(record.updatedAt)],
            ]}
          />
        </CardContent>
      </Card>
      {children}
      {audit ? <RecentEvents entityId={record._id} /> : null}
    </div>
  );
}
