import { useState } from 'react';
import type * as React from 'react';
import type { Invitation } from '@pa/contracts/invitations';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
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
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={<>Revoke the invitation to {invitation.email}?</>}
        description="The link in their mail stops working and says the invitation was withdrawn. You can invite them again later."
        confirmLabel="Revoke invitation"
        danger
        busy={isLoading}
        onConfirm={async () => {
          await revoke(invitation._id).unwrap();
          return `The invitation to ${invitation.email} was revoked.`;
        }}
      />
    </>
  );
}
