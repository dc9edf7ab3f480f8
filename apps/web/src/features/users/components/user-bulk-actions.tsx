import { USER_STATUS_LIST } from '@pa/contracts/users';
import type { BulkUserAnswer, BulkUserChange } from '@pa/contracts/users-bulk';
import { UserCog } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import type { BulkSelection } from '@/components/resource-list/resource-list';
import { errorMessage } from '@/lib/api/api-error';
import { useBulkUpdateUsersMutation } from '../api/users-bulk-api';
import { BulkChangeResult } from './bulk-change-result';

const SELECT =
  'h-9 w-full rounded-md border bg-background px-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

function Choice(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{props.label}</Label>
      <select
        id={id}
        className={SELECT}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">No change</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * "Change selected": one status and/or a role to add or remove for every selected user, then the
 * server's outcome per user (refusals named with the reason; never a silent partial success).
 */
export function UserBulkActions({
  selection,
  roles,
}: {
  selection: BulkSelection;
  roles: { value: string; label: string }[];
}) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const [addRole, setAddRole] = useState('');
  const [removeRole, setRemoveRole] = useState('');
  const [answer, setAnswer] = useState<BulkUserAnswer | null>(null);
  const [problem, setProblem] = useState('');
  const [update, { isLoading }] = useBulkUpdateUsersMutation();
  // Names are taken when the change starts: the list may reload (and the selection clear) after.
  const [nameOf, setNameOf] = useState<(id: string) => string>(() => (id: string) => id);
  const count = selection.ids.length;
  const nothing = !status && !addRole && !removeRole;

  const apply = async () => {
    setProblem('');
    const changes: BulkUserChange['changes'] = {
      ...(status && { status: status as NonNullable<BulkUserChange['changes']['status']> }),
      ...(addRole && { addRoleIds: [addRole] }),
      ...(removeRole && { removeRoleIds: [removeRole] }),
    };
    const names = new Map(selection.ids.map((id) => [id, selection.nameOf(id)]));
    setNameOf(() => (id: string) => names.get(id) ?? id);
    try {
      setAnswer(await update({ ids: selection.ids, changes }).unwrap());
      selection.clear();
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };
  const onOpenChange = (next: boolean) => {
    if (isLoading) return;
    setOpen(next);
    if (!next) {
      setAnswer(null);
      setStatus('');
      setAddRole('');
      setRemoveRole('');
      setProblem('');
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <Button variant="outline" size="sm" className="h-8" disabled={count === 0}>
          <UserCog aria-hidden="true" /> Change selected{count ? ` (${count})` : ''}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 grid max-h-[90vh] w-full max-w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border bg-background p-6 shadow-lg sm:max-w-md">
          <Dialog.Title className="text-lg font-semibold">
            {answer ? 'Bulk change result' : `Change ${count} user${count === 1 ? '' : 's'}`}
          </Dialog.Title>
          <Dialog.Description className="text-sm text-muted-foreground">
            {answer
              ? 'Each user was checked on its own, as if edited one by one.'
              : 'Users you may not change (yourself, or someone with permissions you lack) are skipped and listed afterwards.'}
          </Dialog.Description>
          {answer ? (
            <BulkChangeResult answer={answer} nameOf={nameOf} />
          ) : (
            <div className="grid gap-3">
              <Choice
                label="Set status"
                value={status}
                onChange={setStatus}
                options={USER_STATUS_LIST}
              />
              <Choice label="Add role" value={addRole} onChange={setAddRole} options={roles} />
              <Choice
                label="Remove role"
                value={removeRole}
                onChange={setRemoveRole}
                options={roles}
              />
              {problem ? (
                <p role="alert" className="text-sm text-destructive">
                  {problem}
                </p>
              ) : null}
            </div>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Dialog.Close asChild>
              <Button variant="outline">{answer ? 'Close' : 'Cancel'}</Button>
            </Dialog.Close>
            {answer ? null : (
              <Button disabled={nothing || isLoading} onClick={() => void apply()}>
                {isLoading ? 'Applying…' : 'Apply'}
              </Button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
