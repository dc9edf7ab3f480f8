import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { fieldsChangedBetween } from '@/lib/record-diff';
import type { StaleConflict } from '@/hooks/use-record-editor';
import { DANGER_BUTTON } from '@/lib/danger-button';

/**
 * Someone else saved this record after it was opened: what they changed (field, the value seen, the
 * value now) and the two deliberate ways on — reload theirs, or overwrite with mine.
 */
export function StaleEditDialog<R extends Record<string, unknown>>({
  conflict,
  base,
  labels,
  format,
  onReload,
  onOverwrite,
  onCancel,
}: {
  conflict: StaleConflict<R> | null;
  base: R | undefined;
  labels: Record<string, string>;
  format?: (field: string, value: unknown) => string;
  onReload: () => void;
  onOverwrite: () => void;
  onCancel: () => void;
}) {
  const show = (field: string, value: unknown) =>
    format?.(field, value) ??
    (Array.isArray(value)
      ? value.join(', ') || '—'
      : value === '' || value == null
        ? '—'
        : String(value));
  const changed =
    conflict && base
      ? (fieldsChangedBetween(base, conflict.fresh, Object.keys(labels)) as string[])
      : [];
  const mineToo = new Set(Object.keys(conflict?.mine ?? {}));
  return (
    <AlertDialog open={!!conflict} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent className="sm:max-w-2xl">
        <AlertDialogHeader>
          <AlertDialogTitle>Someone else changed this record</AlertDialogTitle>
          <AlertDialogDescription>
            It was saved by someone else after you opened it. Your changes are not saved yet.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {changed.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" aria-label="What they changed">
              <thead>
                <tr className="border-b">
                  <th className="py-1 pr-3 font-medium">Field</th>
                  <th className="py-1 pr-3 font-medium">When you opened it</th>
                  <th className="py-1 pr-3 font-medium">Now</th>
                  <th className="py-1 font-medium">Your change</th>
                </tr>
              </thead>
              <tbody>
                {changed.map((field) => (
                  <tr key={field} className="border-b align-top last:border-0">
                    <th scope="row" className="py-1 pr-3 font-normal">
                      {labels[field]}
                    </th>
                    <td className="py-1 pr-3 break-all text-muted-foreground">
                      {show(field, base?.[field])}
                    </td>
                    <td className="py-1 pr-3 break-all font-medium">
                      {show(field, conflict?.fresh[field])}
                    </td>
                    <td className="py-1 break-all">
                      {mineToo.has(field) ? show(field, conflict?.mine[field]) : 'unchanged'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">
            None of the fields on this form changed; only its version moved on.
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel>Keep editing</AlertDialogCancel>
          <Button variant="outline" onClick={onReload}>
            Reload their version
          </Button>
          <Button className={DANGER_BUTTON} onClick={onOverwrite}>
            Overwrite with my changes
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
