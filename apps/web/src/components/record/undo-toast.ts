import { toast } from 'sonner';
import { UNDO_MS } from '@/components/resource-list/bulk-delete-dialog';
import { errorMessage } from '@/lib/api/api-error';

/**
 * The "deleted" toast of a record page, with Undo for a few seconds when the caller may restore
 * (the server keeps the record for its restore window; its refusal is shown as it words it).
 */
export function deletedToast(what: string, restore: (() => Promise<unknown>) | null): void {
  toast.success(`${what} deleted.`, {
    duration: restore ? UNDO_MS : undefined,
    action: restore
      ? {
          label: 'Undo',
          onClick: () =>
            void restore().then(
              () => toast.success(`${what} restored.`),
              (error: unknown) => toast.error(`Could not restore: ${errorMessage(error)}`),
            ),
        }
      : undefined,
  });
}
