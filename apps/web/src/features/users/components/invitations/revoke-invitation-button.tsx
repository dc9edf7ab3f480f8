import { useState } from 'react';
import type * as React from 'react';
import { toast } from 'sonner';
import type { Invitation } from '@pa/contracts/invitations';
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
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api/api-error';
import { DANGER_BUTTON } from '@/lib/danger-button';
import { useRevokeInvitationMutation } from '../../api/invitations-api';

/** Revoke, after a confirmation: the mailed link then says the invitation was withdrawn. */
export function RevokeInvitationButton({
  invitation,
  icon,
}: {
  invitation: Invitation;
  icon: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [revoke, { isLoading }] = useRevokeInvitationMutation();
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="text-destructive"
        aria-label={`Revoke the invitation to ${invitation.email}`}
        onClick={() => setOpen(true)}
      >
        {icon} Revoke
      </Button>
      <AlertDialog open={open} onOpenChange={setOpen}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Revoke the invitation to {invitation.email}?</AlertDialogTitle>
            <AlertDialogDescription>
              The link in their mail stops working and says the invitation was withdrawn. You can
              invite them again later.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              disabled={isLoading}
              className={DANGER_BUTTON}
              onClick={async () => {
                try {
                  await revoke(invitation._id).unwrap();
                  toast.success(`The invitation to ${invitation.email} was revoked.`);
                } catch (err) {
                  toast.error(errorMessage(err));
                }
              }}
            >
              Revoke invitation
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
