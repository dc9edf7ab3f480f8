import type { ColumnDef } from '@tanstack/react-table';
import type * as React from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import type { PermissionCode } from '@/lib/permission-gate';
import { RowActions } from './row-actions';

/** The list's own columns around the screen's: the selection checkbox and the row actions. */
export function listColumns<T extends { _id: string }>({
  columns,
  selectable,
  rowName,
  basePath,
  permissions,
  protectedReason,
  renderRowActions,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's column value types vary per column
  columns: ColumnDef<T, any>[];
  selectable: boolean;
  rowName: (row: T) => string;
  basePath: string;
  permissions: { read: PermissionCode; update?: PermissionCode; delete?: PermissionCode };
  protectedReason?: (row: T) => string | null;
  renderRowActions?: (row: T) => React.ReactNode;
}): ColumnDef<T>[] {
  const select: ColumnDef<T> = {
    id: 'select',
    header: ({ table }) => (
      <Checkbox
        checked={
          table.getIsAllPageRowsSelected() ||
          (table.getIsSomePageRowsSelected() ? 'indeterminate' : false)
        }
        onCheckedChange={(value) => table.toggleAllPageRowsSelected(!!value)}
        aria-label="Select all on this page"
      />
    ),
    cell: ({ row }) => (
      <Checkbox
        checked={row.getIsSelected()}
        onCheckedChange={(value) => row.toggleSelected(!!value)}
        aria-label={`Select ${rowName(row.original)}`}
      />
    ),
    enableSorting: false,
    enableHiding: false,
    meta: { className: 'w-8' },
  };
  const actions: ColumnDef<T> = {
    id: 'actions',
    header: () => <span className="sr-only">Actions</span>,
    cell: ({ row }) =>
      renderRowActions ? (
        renderRowActions(row.original)
      ) : (
        <RowActions
          id={row.original._id}
          name={rowName(row.original)}
          basePath={basePath}
          permissions={permissions}
          blockedReason={protectedReason?.(row.original) ?? null}
        />
      ),
    enableSorting: false,
    enableHiding: false,
    // Right after the checkbox and frozen there: in view when long content makes the table
    // scroll sideways, yet never over another column at rest (a frozen column at the right end
    // sat on Roles at 1280 px and on everything at 360 px).
    meta: {
      className:
        'sticky left-0 z-[1] w-28 bg-background max-sm:w-auto [tr:hover>&]:bg-[color-mix(in_oklab,var(--muted)_50%,var(--background))] [tr[data-state=selected]>&]:bg-muted',
    },
  };
  return [...(selectable ? [select] : []), actions, ...columns];
}
