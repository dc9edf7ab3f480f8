import { useState } from 'react';
import { useSelector } from 'react-redux';
import { MFA_REQUIREMENTS, mfaPolicySchema, type MfaPolicy } from '@pa/contracts/mfa';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { FormAlert } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api/api-error';
import { selectUserDetails } from '@/lib/signed-in/auth-slice';
import {
  useMfaPolicyCoverageQuery,
  useMfaPolicyQuery,
  usePolicyPermissionsQuery,
  useSaveMfaPolicyMutation,
} from '../api/security-api';
import { coverageSentence, PolicyCoverage } from './policy-coverage';

const LABELS: Record<MfaPolicy['requireFor'], string> = {
  nobody: 'Nobody: each person chooses',
  everyone: 'Everyone in the company',
  permissions: 'Holders of chosen permissions',
};

const CONFIRM_TITLES: Record<MfaPolicy['requireFor'], string> = {
  nobody: 'Stop requiring a second step?',
  everyone: 'Require a second step of everyone?',
  permissions: 'Require a second step of holders of the chosen permissions?',
};

/** Who must sign in with a second step: nobody, everyone, or holders of chosen permissions. */
export function PolicyCard() {
  const { data, error, isLoading } = useMfaPolicyQuery();
  // Said under the form once a save went through, until the form changes again.
  const [saved, setSaved] = useState(false);
  return (
    <Card className="max-w-3xl">
      <CardHeader>
        <CardTitle level={1}>Two-step sign-in</CardTitle>
        <CardDescription>
          Who must confirm their sign-in with an authenticator app or a passkey. It applies from
          each person’s next sign-in; anyone without a second step sets one up right after their
          password.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? <Spinner className="size-6" /> : null}
        {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
        {/* Keyed by the saved policy: the form starts again from what the server holds. */}
        {data ? (
          <PolicyForm
            key={JSON.stringify(data)}
            saved={data}
            onSaved={() => setSaved(true)}
            onEdited={() => setSaved(false)}
          />
        ) : null}
        <p role="status" className="mt-4 text-sm empty:hidden">
          {saved ? 'Policy saved. It applies from each person’s next sign-in.' : ''}
        </p>
      </CardContent>
    </Card>
  );
}

function PolicyForm({
  saved,
  onSaved,
  onEdited,
}: {
  saved: MfaPolicy;
  onSaved: () => void;
  onEdited: () => void;
}) {
  const { data: codes } = usePolicyPermissionsQuery();
  const [save, saveState] = useSaveMfaPolicyMutation();
  const mayEdit = (useSelector(selectUserDetails)?.permissions ?? []).includes('users.update');
  const [policy, setPolicyState] = useState<MfaPolicy>(saved);
  const { data: coverage } = useMfaPolicyCoverageQuery(policy);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const setPolicy = (change: (p: MfaPolicy) => MfaPolicy) => {
    onEdited();
    setPolicyState(change);
  };

  const toggle = (code: string, on: boolean) =>
    setPolicy((p) => ({
      ...p,
      permissionCodes: on
        ? [...p.permissionCodes, code]
        : p.permissionCodes.filter((c) => c !== code),
    }));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = mfaPolicySchema.safeParse(policy);
    if (!checked.success)
      return setProblem(checked.error.issues[0]?.message ?? 'Check the policy.');
    setProblem(null);
    setConfirming(true);
  };

  return (
    <form onSubmit={submit} className="grid gap-5" aria-label="Two-step policy">
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      {saveState.error ? <FormAlert>{errorMessage(saveState.error)}</FormAlert> : null}
      <fieldset className="grid gap-3" disabled={!mayEdit}>
        <legend className="mb-2 text-sm font-medium">Require a second step of</legend>
        {MFA_REQUIREMENTS.map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="requireFor"
              value={value}
              checked={policy.requireFor === value}
              onChange={() => setPolicy((p) => ({ ...p, requireFor: value }))}
              className="size-4 accent-primary"
            />
            {LABELS[value]}
          </label>
        ))}
      </fieldset>
      {policy.requireFor === 'permissions' ? (
        <fieldset className="grid gap-2 sm:grid-cols-2" disabled={!mayEdit}>
          <legend className="mb-2 text-sm font-medium">Permissions</legend>
          {(codes ?? []).map((permission) => (
            <div key={permission.code} className="flex items-center gap-2">
              <Checkbox
                id={`policy-${permission.code}`}
                checked={policy.permissionCodes.includes(permission.code)}
                onCheckedChange={(on) => toggle(permission.code, on === true)}
              />
              <Label htmlFor={`policy-${permission.code}`} className="font-normal break-all">
                {permission.code}
              </Label>
            </div>
          ))}
        </fieldset>
      ) : null}
      <PolicyCoverage policy={policy} />
      {mayEdit ? (
        <div>
          <Button type="submit" disabled={saveState.isLoading}>
            {saveState.isLoading ? 'Saving...' : 'Save policy'}
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={CONFIRM_TITLES[policy.requireFor]}
            description={coverageSentence(policy, coverage)}
            confirmLabel="Save policy"
            busy={saveState.isLoading}
            onConfirm={async () => {
              await save(mfaPolicySchema.parse(policy)).unwrap();
              onSaved();
              return 'Two-step policy saved.';
            }}
          />
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">
          Changing it needs the users.update permission.
        </p>
      )}
    </form>
  );
}
