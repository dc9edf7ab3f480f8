import type { ColumnDef } from '@tanstack/react-table';
import type * as React from 'react';
import { Link } from 'react-router';
import { sortableHeader } from '@/components/data-table/data-table-column-header';
import { SystemBadge } from '@/components/record/record-details';
import { RelativeTime } from '@/components/relative-time';
import type { CsvColumn, CsvValue } from '@/lib/csv';

/**
 * Column builders of the list screens: a record type's list says which fields it shows and how,
 * the builders write the TanStack column (sortable header, label in the Columns menu, cell).
 */
interface ColumnOptions<T> {
  /** Sorted by clicking its header (default: yes; the server must accept the field). */
  sortable?: boolean;
  /** In the Columns menu (default: yes). */
  hideable?: boolean;
  /** Read from the row's field of the same name (default: yes). */
  accessor?: boolean;
  cell?: (row: T) => React.ReactNode;
  className?: string;
}

export function column<T>(id: string, label: string, options: ColumnOptions<T> = {}) {
  const { sortable = true, hideable = true, accessor = true, cell, className } = options;
  return {
    id,
    ...(accessor ? { accessorKey: id } : {}),
    header: sortable ? sortableHeader(label) : label,
    ...(sortable ? {} : { enableSorting: false }),
    ...(cell ? { cell: ({ row }: { row: { original: T } }) => cell(row.original) } : {}),
    ...(hideable ? {} : { enableHiding: false }),
    meta: { label, ...(className ? { className } : {}) },
  } as ColumnDef<T>;
}

/** The record's name, a link to its page; always shown. */
export function nameColumn<T extends { _id: string }>(
  id: keyof T & string,
  label: string,
  { basePath, className, titled }: { basePath: string; className: string; titled?: boolean },
) {
  return column<T>(id, label, {
    hideable: false,
    cell: (row) => (
      <Link
        to={`${basePath}/${row._id}/read`}
        className={`block font-medium underline-offset-4 hover:underline ${className}`}
        title={titled ? String(row[id]) : undefined}
      >
        {String(row[id])}
      </Link>
    ),
  });
}

/** A text cut to one line at `width`, in full on hover; "—" when empty. */
export function clippedColumn<T>(
  id: keyof T & string,
  label: string,
  width: string,
  options: ColumnOptions<T> = {},
) {
  return column<T>(id, label, {
    ...options,
    cell: (row) => (
      <span className={`block ${width} truncate`} title={String(row[id])}>
        {String(row[id]) || '—'}
      </span>
    ),
  });
}

/** A time, as "3 days ago" with the exact time on hover. */
export const timeColumn = <T,>(
  id: keyof T & string,
  label: string,
  options: ColumnOptions<T> = {},
) =>
  column<T>(id, label, {
    ...options,
    cell: (row) => <RelativeTime iso={row[id] as string | null} />,
  });

/** "System" or "Custom" (roles, permissions). */
export const systemColumn = <T extends { isSystem: boolean }>() =>
  column<T>('isSystem', 'Type', { cell: (row) => <SystemBadge system={row.isSystem} /> });

/** CSV columns that are the row's own fields, headed by their names. */
export const csvFields = <T,>(...fields: (keyof T & string)[]): CsvColumn<T>[] =>
  fields.map((field) => ({ header: field, value: (row) => row[field] as CsvValue }));
