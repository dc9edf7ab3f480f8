import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { useResetSecondStepMutation } from '../api/second-step-api';

/**
 * An administrator's "Reset second step" for a user who lost their device: removes their app,
 * recovery codes and passkeys (the server refuses more powerful users and oneself). For the user page.
 */
export function ResetSecondStepButton({ userId, userName }: { userId: string; userName: string }) {
  const [open, setOpen] = useState(false);
  const [reset, { isLoading }] = useResetSecondStepMutation();
  const allowed = useMissingPermissions('users.update').length === 0;
  if (!allowed) return null;
  return (
    <>
      <Button type="button" variant="outline" disabled={isLoading} onClick={() => setOpen(true)}>
        Reset second step
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={<>Reset the second step of {userName}?</>}
        description="Their authenticator app, recovery codes and passkeys are removed and every sign-in of theirs ends. Do this only when you are sure it is them asking, for example after they lost their phone."
        confirmLabel="Reset"
        busy={isLoading}
        onConfirm={async () => {
          const done = await reset(userId).unwrap();
          // What will really happen next depends on the company policy (issue #43).
          return done.enrolmentRequired
            ? `Second step of ${userName} reset and their sign-ins ended. The company policy asks them to set up a new second step when they next sign in.`
            : `Second step of ${userName} reset and their sign-ins ended. They sign in with their password alone until they set up a new second step.`;
        }}
      />
    </>
  );
}
