import type * as React from 'react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { DialogCancel, DialogFrame } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api/api-error';
import { DANGER_BUTTON } from '@/lib/danger-button';

interface Outcome {
  id: string;
  /** Null for a deleted row that was not on the page (summed up, not named). */
  name: string | null;
  error: string | null;
}

/** One run of the delete: its toast, and whether its delete was undone. */
interface DeleteRun {
  toastId: string | number | null;
  undone: boolean;
}

/** How long the "Undo" of a delete stays on screen (the server keeps the rows much longer). */
export const UNDO_MS = 10_000;

/** How many rows the confirmation names before summing up the rest. */
const NAMED_ROWS = 100;

interface BulkDeleteProps<T> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The selected ids: rows of the page, or every row the search matches ("select all N"). */
  ids: string[];
  /** The row when it is on the current page. */
  rowOf: (id: string) => T | undefined;
  noun: [string, string];
  rowName: (row: T) => string;
  /** Names a row that is not on the page (asked for the refused ones only). */
  nameById?: (id: string) => Promise<string>;
  protectedReason?: (row: T) => string | null;
  deleteOne: (id: string) => Promise<unknown>;
  /** When given, the success toast offers "Undo" (the server keeps deleted rows for a while). */
  restoreMany?: (ids: string[]) => Promise<unknown>;
  onDone: () => void;
}

/**
 * The delete run of a `BulkDeleteDialog`: one call per row, the outcome per row, the toast with
 * Undo, and the undo itself (once per run).
 */
function useBulkDelete<T extends { _id: string }>({
  ids,
  rowOf,
  noun,
  rowName,
  nameById,
  deleteOne,
  restoreMany,
  onDone,
}: BulkDeleteProps<T>) {
  const [running, setRunning] = useState(false);
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  // The "Deleted N" toast of the last run and whether its delete was undone: an undo from the result
  // dialog takes the toast away, and a second undo of the same delete does nothing (it would answer
  // "not found" for rows already back).
  const lastRun = useRef<DeleteRun>({ toastId: null, undone: false });
  const undoDelete = async (ids: string[], run = lastRun.current) => {
    if (!restoreMany || run.undone) return;
    run.undone = true;
    if (run.toastId !== null) toast.dismiss(run.toastId);
    try {
      await restoreMany(ids);
      toast.success(`Restored ${ids.length} ${ids.length === 1 ? noun[0] : noun[1]}.`);
      onDone();
    } catch (error) {
      run.undone = false;
      toast.error(`Could not restore: ${errorMessage(error)}`);
    }
  };
  const nameOf = async (id: string, refused: boolean) => {
    const row = rowOf(id);
    if (row) return rowName(row);
    if (!refused || !nameById) return null;
    return nameById(id).catch(() => null);
  };
  const run = async () => {
    setRunning(true);
    const results: Outcome[] = [];
    for (const id of ids) {
      let error: string | null = null;
      try {
        await deleteOne(id);
      } catch (failure) {
        error = errorMessage(failure);
      }
      const name = await nameOf(id, error !== null);
      results.push({ id, name: name ?? (error ? `${noun[0]} ${id}` : null), error });
    }
    setRunning(false);
    setOutcomes(results);
    onDone();
    const thisRun: DeleteRun = { toastId: null, undone: false };
    lastRun.current = thisRun;
    const deletedIds = results.filter((r) => !r.error).map((r) => r.id);
    const deleted = deletedIds.length;
    const failed = results.length - deleted;
    const undo =
      restoreMany && deleted > 0
        ? {
            duration: UNDO_MS,
            action: { label: 'Undo', onClick: () => void undoDelete(deletedIds, thisRun) },
          }
        : undefined;
    thisRun.toastId =
      failed === 0
        ? toast.success(`Deleted ${deleted} ${deleted === 1 ? noun[0] : noun[1]}.`, undo)
        : toast.warning(
            `Deleted ${deleted} of ${results.length} ${noun[1]}; ${failed} could not be deleted.`,
            undo,
          );
  };
  return { running, outcomes, setOutcomes, run, undoDelete };
}

/**
 * One confirmation for deleting the selected rows (those on the page, or every matching one),
 * naming each row on screen; then one call per row and a report of what could not go and why (the
 * server's sentence, e.g. a protected row).
 */
export function BulkDeleteDialog<T extends { _id: string }>(props: BulkDeleteProps<T>) {
  const { open, onOpenChange, ids, rowOf, noun, rowName, protectedReason, restoreMany } = props;
  const { running, outcomes, setOutcomes, run, undoDelete } = useBulkDelete(props);
  const close = (next: boolean) => {
    if (running) return;
    onOpenChange(next);
    if (!next) setOutcomes(null);
  };
  if (outcomes)
    return (
      <DialogFrame
        open={open}
        onOpenChange={close}
        {...outcomesFrame(
          outcomes,
          noun,
          restoreMany && outcomes.some((o) => !o.error)
            ? () => {
                close(false);
                void undoDelete(outcomes.filter((o) => !o.error).map((o) => o.id));
              }
            : null,
        )}
      />
    );
  const count = ids.length;
  const shown = ids.flatMap((id) => rowOf(id) ?? []).slice(0, NAMED_ROWS);
  const unnamed = count - shown.length;
  const some = (n: number) => `${n} ${n === 1 ? noun[0] : noun[1]}`;
  return (
    <DialogFrame
      open={open}
      onOpenChange={close}
      title={`Delete ${some(count)}?`}
      description={
        <>
          {restoreMany
            ? 'You can undo it for a few seconds afterwards. '
            : 'This cannot be undone. '}
          Each one is deleted on its own; any that cannot go are reported with the reason.
        </>
      }
      footer={
        <>
          <DialogCancel disabled={running}>Cancel</DialogCancel>
          <Button className={DANGER_BUTTON} onClick={run} disabled={running || count === 0}>
            {running ? 'Deleting…' : `Delete ${some(count)}`}
          </Button>
        </>
      }
    >
      <ScrollList label="To be deleted">
        {shown.map((row) => {
          const reason = protectedReason?.(row);
          return (
            <li key={row._id} className="rounded-md border px-3 py-2">
              <span className="font-medium break-all">{rowName(row)}</span>
              {reason ? (
                <span className="block text-muted-foreground">Will be refused: {reason}</span>
              ) : null}
            </li>
          );
        })}
        {unnamed > 0 ? (
          <li className="rounded-md border border-dashed px-3 py-2 text-muted-foreground">
            {shown.length ? 'and ' : ''}
            {some(unnamed)} on other pages (all matching the search and filters)
          </li>
        ) : null}
      </ScrollList>
    </DialogFrame>
  );
}

/** The report after a bulk delete: refused rows with the server's reason, then the deleted ones. */
function outcomesFrame(outcomes: Outcome[], noun: [string, string], onUndo: (() => void) | null) {
  return {
    title: `Delete selected ${noun[1]}: result`,
    description: (
      <>
        {outcomes.filter((o) => !o.error).length} deleted, {outcomes.filter((o) => o.error).length}{' '}
        not deleted.
      </>
    ),
    footer: (
      <>
        {onUndo ? (
          <Button variant="outline" onClick={onUndo}>
            Undo the delete
          </Button>
        ) : null}
        <DialogCancel>Close</DialogCancel>
      </>
    ),
    children: (
      <ScrollList label="Outcome per row">
        {orderForReport(outcomes).map((o) => (
          <li key={o.id} className="rounded-md border px-3 py-2">
            <span className="font-medium break-all">{o.name}</span>:{' '}
            {o.error ? (
              <span className="text-destructive">not deleted — {o.error}</span>
            ) : (
              <span>deleted</span>
            )}
          </li>
        ))}
        <UnnamedDeleted count={outcomes.filter((o) => o.name === null).length} noun={noun} />
      </ScrollList>
    ),
  };
}

/** Refused rows first (they need attention), then the deleted ones named on the page. */
function orderForReport(outcomes: Outcome[]) {
  return [...outcomes.filter((o) => o.error), ...outcomes.filter((o) => !o.error && o.name)];
}

function UnnamedDeleted({ count, noun }: { count: number; noun: [string, string] }) {
  if (count === 0) return null;
  return (
    <li className="rounded-md border border-dashed px-3 py-2">
      {count} {count === 1 ? noun[0] : noun[1]} from other pages: deleted
    </li>
  );
}

/** A list that may scroll: keyboard users can focus it to scroll (axe `scrollable-region-focusable`). */
function ScrollList({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard
      tabIndex={0}
      className="max-h-72 overflow-y-auto rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
    >
      <ul className="grid gap-1 text-sm" aria-label={label}>
        {children}
      </ul>
    </div>
  );
}
