import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import type { User } from '@pa/contracts/users';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { GatedButton } from '@/components/permission-gate';
import { useSendPasswordResetMutation } from '../api/invitations-api';

/**
 * An administrator mails this user the forgot-password link (30 minutes), after a confirmation
 * naming the address. Only active users can use one, so it is blocked for the others.
 */
export function SendResetLinkButton({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const [send, { isLoading }] = useSendPasswordResetMutation();
  return (
    <>
      <GatedButton
        need="users.update"
        variant="outline"
        onClick={() => setOpen(true)}
        blockedReason={
          user.status === 'active'
            ? null
            : `${user.userName} is ${user.status}; make them active first, or the link would not let them sign in.`
        }
      >
        <KeyRound aria-hidden="true" /> Send password reset link
      </GatedButton>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={<>Send a password reset link to {user.userName}?</>}
        description={
          <>
            A link to choose a new password goes to {user.email}. It works once, for 30 minutes;
            their current password keeps working until they use it.
          </>
        }
        confirmLabel="Send link"
        busy={isLoading}
        onConfirm={async () => {
          await send(user._id).unwrap();
          return `A password reset link was sent to ${user.email}.`;
        }}
      />
    </>
  );
}
