import { useLayoutEffect, useRef, useState } from 'react';
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
import { GatedButton } from '@/components/permission-gate';
import { errorMessage } from '@/lib/api/api-error';
import type { PermissionCode } from '@/lib/permission-gate';
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
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      onCloseAutoFocus={(event) => {
        if (!opener.current?.isConnected) return;
        event.preventDefault();
        opener.current.focus();
      }}
      footer={
        <>
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
        </>
      }
    />
  );
}

/**
 * The frame of every confirming dialog here (a confirmation, the leave guard, the stale-edit
 * conflict, the bulk delete): title, description, what the dialog shows, then its buttons.
 */
export function DialogFrame({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  className,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: React.ReactNode;
  description: React.ReactNode;
  children?: React.ReactNode;
  footer: React.ReactNode;
  className?: string;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent className={className} onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>{footer}</AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The buttons of a `DialogFrame`: Cancel closes it; an action closes it after its click. */
export { AlertDialogAction as DialogAction, AlertDialogCancel as DialogCancel };

/**
 * A page action that asks first: an outline button for those holding `need` (disabled with its
 * reason otherwise, or with `blockedReason`), opening a `ConfirmDialog`.
 */
export function ConfirmButton({
  need,
  blockedReason = null,
  children,
  ...dialog
}: Omit<ConfirmDialogProps, 'open' | 'onOpenChange'> & {
  need: PermissionCode;
  blockedReason?: string | null;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <GatedButton
        need={need}
        variant="outline"
        onClick={() => setOpen(true)}
        blockedReason={blockedReason}
      >
        {children}
      </GatedButton>
      <ConfirmDialog open={open} onOpenChange={setOpen} {...dialog} />
    </>
  );
}
