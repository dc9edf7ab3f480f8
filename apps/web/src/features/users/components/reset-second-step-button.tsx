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
        description="Their authenticator app, recovery codes and passkeys are removed. Do this only when you are sure it is them asking, for example after they lost their phone."
        confirmLabel="Reset"
        busy={isLoading}
        onConfirm={async () => {
          await reset(userId).unwrap();
          return `${userName} signs in with their password alone until they set up a new second step.`;
        }}
      />
    </>
  );
}
