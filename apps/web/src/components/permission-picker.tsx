import { useMemo } from 'react';
import type { Permission } from '@pa/contracts/permissions';
import { Checkbox } from '@/components/ui/checkbox';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { useHeldPermissions } from '@/hooks/use-held-permissions';

export function groupPermissions(permissions: readonly Permission[]) {
  const groups = new Map<string, Permission[]>();
  for (const p of permissions) {
    const key = p.group || 'Other';
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/**
 * Permissions grouped by their group, with "select all" per group. Permissions the signed-in user
 * does not hold cannot be given or taken (the portal's no-escalation rule) and say so.
 */
export function PermissionPicker({
  permissions,
  value,
  onChange,
  disabledReason,
  idPrefix,
}: {
  permissions: readonly Permission[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  /** Locks the whole picker (e.g. editing yourself). */
  disabledReason?: string | null;
  idPrefix: string;
}) {
  const held = new Set(useHeldPermissions());
  const groups = useMemo(() => groupPermissions(permissions), [permissions]);
  const selected = new Set(value);
  const lockOf = (p: Permission) =>
    disabledReason ??
    (held.has(p.code) ? null : `You do not hold “${p.code}”, so you cannot give or take it.`);
  const set = (ids: string[], on: boolean) => {
    const next = new Set(selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onChange([...next]);
  };
  // Every company has the system permissions, so an empty list means it is still loading.
  if (permissions.length === 0)
    return <p className="text-sm text-muted-foreground">Loading permissions…</p>;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {groups.map(([group, items]) => {
        const free = items.filter((p) => !lockOf(p));
        const allOn = free.length > 0 && free.every((p) => selected.has(p._id));
        const someOn = free.some((p) => selected.has(p._id));
        const groupId = `${idPrefix}-group-${group.replace(/\W+/g, '-')}`;
        return (
          <fieldset key={group} className="grid content-start gap-2 rounded-md border p-3">
            <legend className="px-1 text-sm font-medium">{group}</legend>
            <div className="flex items-center gap-2">
              <Checkbox
                id={groupId}
                checked={allOn ? true : someOn ? 'indeterminate' : false}
                disabled={free.length === 0}
                onCheckedChange={(on) =>
                  set(
                    free.map((p) => p._id),
                    on === true,
                  )
                }
              />
              <label htmlFor={groupId} className="text-sm text-muted-foreground">
                Select all in {group}
              </label>
            </div>
            {items.map((p) => {
              const lock = lockOf(p);
              const id = `${idPrefix}-${p._id}`;
              const row = (
                <div className="flex items-start gap-2">
                  <Checkbox
                    id={id}
                    checked={selected.has(p._id)}
                    disabled={!!lock}
                    onCheckedChange={(on) => set([p._id], on === true)}
                    className="mt-0.5"
                  />
                  <label htmlFor={id} className="grid text-sm leading-tight">
                    <span>{p.name}</span>
                    <span className="font-mono text-xs text-muted-foreground">{p.code}</span>
                  </label>
                </div>
              );
              return lock ? (
                <Tooltip key={p._id}>
                  <TooltipTrigger asChild>
                    <div
                      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a disabled control cannot take focus; this wrapper does, so keyboard users reach the tooltip saying why
                      tabIndex={0}
                      className="rounded-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
                      aria-describedby={`${id}-why`}
                    >
                      {row}
                      <span id={`${id}-why`} className="sr-only">
                        {lock}
                      </span>
                    </div>
                  </TooltipTrigger>
                  <TooltipContent className="max-w-72">{lock}</TooltipContent>
                </Tooltip>
              ) : (
                <div key={p._id}>{row}</div>
              );
            })}
          </fieldset>
        );
      })}
    </div>
  );
}
