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
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api/api-error';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { useResetSecondStepMutation } from '../api/second-step-api';

/**
 * An administrator's "Reset second step" for a user who lost their device: removes their app,
 * recovery codes and passkeys (the server refuses more powerful users and oneself). For the user page.
 */
export function ResetSecondStepButton({ userId, userName }: { userId: string; userName: string }) {
  const [reset, { isLoading }] = useResetSecondStepMutation();
  const allowed = useMissingPermissions('users.update').length === 0;
  const confirm = async () => {
    try {
      await reset(userId).unwrap();
      toast.success(
        `${userName} signs in with their password alone until they set up a new second step.`,
      );
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };
  if (!allowed) return null;
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button type="button" variant="outline" disabled={isLoading}>
          Reset second step
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Reset the second step of {userName}?</AlertDialogTitle>
          <AlertDialogDescription>
            Their authenticator app, recovery codes and passkeys are removed. Do this only when you
            are sure it is them asking, for example after they lost their phone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => void confirm()}>Reset</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
