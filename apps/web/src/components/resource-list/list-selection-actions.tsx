import type { Table } from '@tanstack/react-table';
import { Download, Trash2 } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { DataTableViewOptions } from '@/components/data-table/data-table-view-options';
import { GatedButton } from '@/components/permission-gate';
import { DANGER_BUTTON } from '@/lib/danger-button';
import type { PermissionCode } from '@/lib/permission-gate';

/**
 * The right side of a list's toolbar: delete and change the selection, export, columns. On a narrow
 * screen it flows on the filters' row: export and columns as icons, and delete and change only once
 * something is selected (before, they cannot act) — the toolbar took ~390 px before the first row.
 */
export function ListSelectionActions<T>({
  table,
  noun,
  deleteNeed,
  selectedCount,
  onDelete,
  bulkActions,
  exportProgress,
  onExport,
}: {
  table: Table<T>;
  noun: [string, string];
  /** The delete permission, when the caller may delete (the button is hidden otherwise). */
  deleteNeed: PermissionCode | null;
  selectedCount: number;
  onDelete: () => void;
  bulkActions: React.ReactNode;
  exportProgress: string | null;
  onExport: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 max-sm:contents xl:ml-auto">
      {deleteNeed ? (
        <span className={selectedCount === 0 ? 'contents max-sm:hidden' : 'contents'}>
          <GatedButton
            need={deleteNeed}
            size="sm"
            // Red only when it can act: a disabled red button still reads as ready to delete.
            variant={selectedCount === 0 ? 'outline' : 'default'}
            className={selectedCount === 0 ? 'h-8' : `h-8 ${DANGER_BUTTON}`}
            blockedReason={selectedCount === 0 ? `Select ${noun[1]} to delete first.` : null}
            onClick={onDelete}
          >
            <Trash2 aria-hidden="true" /> Delete selected
            {selectedCount ? ` (${selectedCount})` : ''}
          </GatedButton>
        </span>
      ) : null}
      {bulkActions ? (
        <span className={selectedCount === 0 ? 'contents max-sm:hidden' : 'contents'}>
          {bulkActions}
        </span>
      ) : null}
      <Button
        variant="outline"
        size="sm"
        className="h-8 max-sm:px-2"
        onClick={onExport}
        disabled={exportProgress !== null}
      >
        <Download aria-hidden="true" />{' '}
        {exportProgress ? (
          `Exporting… ${exportProgress}`
        ) : (
          <span className="max-sm:sr-only">Export CSV</span>
        )}
      </Button>
      <DataTableViewOptions table={table} />
    </div>
  );
}
