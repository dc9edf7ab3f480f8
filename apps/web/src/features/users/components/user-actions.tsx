import { KeyRound, LogOut } from 'lucide-react';
import type { User } from '@pa/contracts/users';
import { ConfirmButton } from '@/components/confirm-dialog';
import { useEndUserSignInsMutation } from '@/lib/api/company-api';
import { fullName } from '@/lib/format';
import { useSendPasswordResetMutation } from '../api/invitations-api';

/**
 * An administrator mails this user the forgot-password link (30 minutes), after a confirmation
 * naming the address. Only active users can use one, so it is blocked for the others.
 */
export function SendResetLinkButton({ user }: { user: User }) {
  const [send, { isLoading }] = useSendPasswordResetMutation();
  return (
    <ConfirmButton
      need="users.update"
      blockedReason={
        user.status === 'active'
          ? null
          : `${user.userName} is ${user.status}; make them active first, or the link would not let them sign in.`
      }
      title={<>Send a password reset link to {user.userName}?</>}
      description={
        <>
          A link to choose a new password goes to {user.email}. It works once, for 30 minutes; their
          current password keeps working until they use it.
        </>
      }
      confirmLabel="Send link"
      busy={isLoading}
      onConfirm={async () => {
        await send(user._id).unwrap();
        return `A password reset link was sent to ${user.email}.`;
      }}
    >
      <KeyRound aria-hidden="true" /> Send password reset link
    </ConfirmButton>
  );
}

/** An administrator ends every sign-in of this user (they must sign in again everywhere). */
export function EndSignInsButton({ user, self }: { user: User; self: boolean }) {
  const [revoke, { isLoading }] = useEndUserSignInsMutation();
  return (
    <ConfirmButton
      need="users.update"
      blockedReason={
        self
          ? 'To end your own sign-ins, use “Sign out everywhere else” on your account page.'
          : null
      }
      title={<>End all sessions of {user.userName}?</>}
      description={
        <>
          Every device where {fullName(user) || user.userName} is signed in is signed out at once;
          they will have to sign in again.
        </>
      }
      confirmLabel="End all sessions"
      danger
      busy={isLoading}
      onConfirm={async () => {
        const { revoked } = await revoke(user._id).unwrap();
        return `${revoked} sign-in${revoked === 1 ? '' : 's'} of ${user.userName} ended.`;
      }}
    >
      <LogOut aria-hidden="true" /> End all sessions
    </ConfirmButton>
  );
}
