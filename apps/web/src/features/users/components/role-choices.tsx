import type { Role } from '@pa/contracts/roles';
import { Checkbox } from '@/components/ui/checkbox';
import { codeBeyond } from '@/lib/permission-gate';

/** Why the user may not give `role` (it holds a permission they do not), or null. */
export function roleGiveLock(
  role: Role,
  codeOf: ReadonlyMap<string, string>,
  held: ReadonlySet<string>,
): string | null {
  const beyond = codeBeyond(role.permissionIds, (id) => codeOf.get(id), held);
  return beyond ? `This role holds “${beyond}”, which you do not hold.` : null;
}

/**
 * Role checkboxes of the user form and the invitation form; a role the caller may not give is
 * disabled with its reason beside it (the server refuses it anyway).
 */
export function RoleChoices({
  roles,
  value,
  onChange,
  lockOf,
  idPrefix,
  reasonsShown = true,
  emptyText = 'Your company has no roles yet.',
}: {
  roles: readonly Role[];
  value: readonly string[];
  onChange: (ids: string[]) => void;
  lockOf: (role: Role) => string | null;
  /** Prefix of the checkboxes' ids, unique on the page. */
  idPrefix: string;
  /** False when one reason for every lock is already shown above the choices. */
  reasonsShown?: boolean;
  /** Said when there is no role to choose (null: say nothing, the form explains why). */
  emptyText?: string | null;
}) {
  if (roles.length === 0) {
    return emptyText ? <p className="text-sm text-muted-foreground">{emptyText}</p> : null;
  }
  return (
    <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
      {roles.map((role) => {
        const lock = lockOf(role);
        const id = `${idPrefix}-${role._id}`;
        return (
          <div key={role._id} className="flex items-start gap-2">
            <Checkbox
              id={id}
              checked={value.includes(role._id)}
              disabled={!!lock}
              aria-describedby={lock && reasonsShown ? `${id}-why` : undefined}
              onCheckedChange={(on) =>
                onChange(on === true ? [...value, role._id] : value.filter((v) => v !== role._id))
              }
              className="mt-0.5"
            />
            <label htmlFor={id} className="grid text-sm leading-tight">
              <span>{role.name}</span>
              {lock && reasonsShown ? (
                <span id={`${id}-why`} className="text-xs text-muted-foreground">
                  {lock}
                </span>
              ) : null}
            </label>
          </div>
        );
      })}
    </div>
  );
}
