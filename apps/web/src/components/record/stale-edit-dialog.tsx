import { DialogCancel, DialogFrame } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { fieldsChangedBetween } from '@/lib/record-diff';
import type { StaleConflict } from '@/hooks/use-record-editor';
import { DANGER_BUTTON } from '@/lib/danger-button';

/**
 * Someone else saved this record after it was opened: what they changed (field, the value seen, the
 * value now) and the two deliberate ways on — reload theirs, or overwrite with mine.
 */
export function StaleEditDialog<R extends object>({
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
  const before = base as Record<string, unknown> | undefined;
  const now = conflict?.fresh as Record<string, unknown> | undefined;
  const changed = now && before ? fieldsChangedBetween(before, now, Object.keys(labels)) : [];
  const mineToo = new Set(Object.keys(conflict?.mine ?? {}));
  return (
    <DialogFrame
      open={!!conflict}
      onOpenChange={(open) => !open && onCancel()}
      className="sm:max-w-2xl"
      title="Someone else changed this record"
      description="It was saved by someone else after you opened it. Your changes are not saved yet."
      footer={
        <>
          <DialogCancel>Keep editing</DialogCancel>
          <Button variant="outline" onClick={onReload}>
            Reload their version
          </Button>
          <Button className={DANGER_BUTTON} onClick={onOverwrite}>
            Overwrite with my changes
          </Button>
        </>
      }
    >
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
                    {show(field, before?.[field])}
                  </td>
                  <td className="py-1 pr-3 break-all font-medium">{show(field, now?.[field])}</td>
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
    </DialogFrame>
  );
}
