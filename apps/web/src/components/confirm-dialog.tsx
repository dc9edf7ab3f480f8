import { useLayoutEffect, useRef } from 'react';
import type * as React from 'react';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { errorMessage } from '@/lib/api/api-error';
import { DANGER_BUTTON } from '@/lib/danger-button';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: React.ReactNode;
  description: React.ReactNode;
  confirmLabel: string;
  /** The label of the way out (default "Cancel"). */
  cancelLabel?: string;
  /** The confirm button in the solid danger red (for what cannot be taken back by the dialog). */
  danger?: boolean;
  /** The call is in flight: the confirm button waits. */
  busy?: boolean;
  /** Does the confirmed work and answers the success message; a failure shows the API's message. */
  onConfirm: () => Promise<string>;
}

/**
 * A confirmation before one call, with its outcome as a toast. The dialog stays open, its confirm
 * button waiting, until the call has answered. Opened from any button (not only a Radix trigger), it
 * gives focus back to the element that had it when it opened, so closing never leaves the keyboard
 * on the page body.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger = false,
  busy = false,
  onConfirm,
}: ConfirmDialogProps) {
  const opener = useRef<HTMLElement | null>(null);
  // A layout effect runs before the dialog's focus scope moves focus inside it (a passive effect).
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement)
      opener.current = document.activeElement;
  }, [open]);
  const confirm = async () => {
    try {
      toast.success(await onConfirm());
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      onOpenChange(false);
    }
  };
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          if (!opener.current?.isConnected) return;
          event.preventDefault();
          opener.current.focus();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction
            disabled={busy}
            className={danger ? DANGER_BUTTON : undefined}
            onClick={(event) => {
              event.preventDefault(); // closed once the call has answered
              void confirm();
            }}
          >
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
