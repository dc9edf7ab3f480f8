import type { Table } from '@tanstack/react-table';
import { Download, Trash2 } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { DataTableViewOptions } from '@/components/data-table/data-table-view-options';
import { GatedButton } from '@/components/permission-gate';
import { DANGER_BUTTON } from '@/lib/danger-button';
import type { PermissionCode } from '@/lib/permission-gate';

/** The right side of a list's toolbar: delete and change the selection, export, columns. */
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
    <div className="flex flex-wrap items-center gap-2 xl:ml-auto">
      {deleteNeed ? (
        <GatedButton
          need={deleteNeed}
          size="sm"
          className={`h-8 ${DANGER_BUTTON}`}
          blockedReason={selectedCount === 0 ? `Select ${noun[1]} to delete first.` : null}
          onClick={onDelete}
        >
          <Trash2 aria-hidden="true" /> Delete selected
          {selectedCount ? ` (${selectedCount})` : ''}
        </GatedButton>
      ) : null}
      {bulkActions}
      <Button
        variant="outline"
        size="sm"
        className="h-8"
        onClick={onExport}
        disabled={exportProgress !== null}
      >
        <Download aria-hidden="true" />{' '}
        {exportProgress ? `Exporting… ${exportProgress}` : 'Export CSV'}
      </Button>
      <DataTableViewOptions table={table} />
    </div>
  );
}
