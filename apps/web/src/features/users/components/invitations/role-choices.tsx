import type { Role } from '@pa/contracts/roles';
import { Checkbox } from '@/components/ui/checkbox';

/**
 * Role checkboxes; a role the caller may not give is disabled with its reason beside it (the
 * server refuses it anyway).
 */
export function RoleChoices({
  roles,
  value,
  onChange,
  lockOf,
}: {
  roles: readonly Role[];
  value: readonly string[];
  onChange: (ids: string[]) => void;
  lockOf: (role: Role) => string | null;
}) {
  if (roles.length === 0) {
    return <p className="text-sm text-muted-foreground">Your company has no roles yet.</p>;
  }
  return (
    <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
      {roles.map((role) => {
        const lock = lockOf(role);
        const id = `invite-role-${role._id}`;
        return (
          <div key={role._id} className="flex items-start gap-2">
            <Checkbox
              id={id}
              checked={value.includes(role._id)}
              disabled={!!lock}
              aria-describedby={lock ? `${id}-why` : undefined}
              onCheckedChange={(on) =>
                onChange(on === true ? [...value, role._id] : value.filter((v) => v !== role._id))
              }
              className="mt-0.5"
            />
            <label htmlFor={id} className="grid text-sm leading-tight">
              <span>{role.name}</span>
              {lock ? (
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
