import type { HeaderContext } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** A sortable header: click sorts by this column, shift-click adds it as the next sort level. */
export function DataTableColumnHeader<T>({
  column,
  table,
  title,
}: Pick<HeaderContext<T, unknown>, 'column' | 'table'> & { title: string }) {
  if (!column.getCanSort()) return <span>{title}</span>;
  const sorted = column.getIsSorted();
  const levels = table.getState().sorting.length;
  const index = column.getSortIndex();
  return (
    <Button
      variant="ghost"
      size="sm"
      // a two-word title may wrap when the table is tight, so the table fits its area (1280 px);
      // on a phone the table scrolls sideways instead
      className="-ml-3 h-auto min-h-8 text-left sm:whitespace-normal"
      onClick={column.getToggleSortingHandler()}
      title="Sort by this column; shift-click adds it as another sort level"
    >
      <span>{title}</span>
      {sorted === 'desc' ? (
        <ArrowDown aria-hidden="true" />
      ) : sorted === 'asc' ? (
        <ArrowUp aria-hidden="true" />
      ) : (
        <ChevronsUpDown aria-hidden="true" className="opacity-50" />
      )}
      {sorted && levels > 1 ? (
        <span className="text-xs text-muted-foreground">
          <span className="sr-only">sort level </span>
          {index + 1}
        </span>
      ) : null}
    </Button>
  );
}

/** The `header` of a sortable column definition. */
export const sortableHeader =
  (title: string) =>
  <T,>(context: HeaderContext<T, unknown>) => (
    <DataTableColumnHeader column={context.column} table={context.table} title={title} />
  );
