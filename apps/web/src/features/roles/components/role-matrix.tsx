import { Fragment, useMemo, useState } from 'react';
import type { Permission } from '@pa/contracts/permissions';
import type { Role } from '@pa/contracts/roles';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { errorMessage } from '@/lib/api/api-error';
import { cn } from '@/lib/utils';
import {
  useAllPermissionsQuery,
  useAllRolesQuery,
  useUpdateRoleMutation,
} from '@/lib/api/company-api';
import { useHeldPermissions, useMissingPermissions } from '@/hooks/use-held-permissions';
import {
  cellLockReason,
  draftOf,
  isCellChanged,
  matrixChangeSet,
  type RoleChange,
} from '../lib/matrix';
import { ForbiddenState } from '@/components/forbidden-state';
import { PageHeader } from '@/components/page-header';
import { groupPermissions } from '@/components/permission-picker';
import { LeaveGuard } from '@/components/record/leave-guard';

interface SaveReport {
  saved: string[];
  failed: { name: string; message: string }[];
}

/**
 * Roles as columns, permissions as rows (grouped), changed cells highlighted, saved in one action:
 * one PATCH per changed role with the version it was based on; a role someone else changed
 * meanwhile is reported, never overwritten.
 */
export function RoleMatrix() {
  const missing = useMissingPermissions(['roles.read', 'permissions.read']);
  if (missing.length) return <ForbiddenState need={missing} what="the permission matrix" />;
  return <RoleMatrixScreen />;
}

function RoleMatrixScreen() {
  const roles = useAllRolesQuery();
  const permissions = useAllPermissionsQuery();
  const heldList = useHeldPermissions();
  const held = useMemo(() => new Set(heldList), [heldList]);
  const [update] = useUpdateRoleMutation();
  const [edits, setEdits] = useState<Record<string, Set<string>> | null>(null);
  const [saving, setSaving] = useState(false);
  const [report, setReport] = useState<SaveReport | null>(null);

  const roleList = useMemo(() => roles.data ?? [], [roles.data]);
  const draft = useMemo(() => edits ?? draftOf(roleList), [edits, roleList]);
  const changes = useMemo(() => matrixChangeSet(roleList, draft), [roleList, draft]);
  const codeOf = useMemo(
    () => new Map((permissions.data ?? []).map((p) => [p._id, p.code])),
    [permissions.data],
  );
  const groups = useMemo(() => groupPermissions(permissions.data ?? []), [permissions.data]);
  const cellCount = changes.reduce((n, c) => n + c.added.length + c.removed.length, 0);

  const toggle = (roleId: string, permissionId: string, on: boolean) => {
    const next = { ...draft, [roleId]: new Set(draft[roleId]) };
    if (on) next[roleId]!.add(permissionId);
    else next[roleId]!.delete(permissionId);
    setEdits(next);
    setReport(null);
  };

  const save = async () => {
    setSaving(true);
    const result: SaveReport = { saved: [], failed: [] };
    for (const change of changes as RoleChange[]) {
      try {
        await update({
          id: change.roleId,
          body: { permissionIds: change.permissionIds, version: change.version },
        }).unwrap();
        result.saved.push(change.name);
      } catch (error) {
        const stale = (error as { status?: unknown }).status === 409;
        result.failed.push({
          name: change.name,
          message: stale
            ? `${errorMessage(error)} Its changes here were not saved; the matrix now shows it as it is.`
            : errorMessage(error),
        });
      }
    }
    setSaving(false);
    setEdits(null);
    setReport(result);
    if (result.failed.length === 0)
      toast.success(`Saved ${result.saved.length} role${result.saved.length === 1 ? '' : 's'}.`);
    else
      toast.warning(
        `Saved ${result.saved.length} role${result.saved.length === 1 ? '' : 's'}; ${result.failed.length} not saved.`,
      );
  };

  const loading = roles.isLoading || permissions.isLoading;
  const error = roles.error ?? permissions.error;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <PageHeader
        title="Permission matrix"
        description="Tick what each role may do. Changed cells are highlighted until you save."
        actions={
          <Button asChild variant="outline">
            <Link to="/app/company/roles">Back to roles</Link>
          </Button>
        }
      />
      <div
        // Sticks below the top bar (h-14), never over it.
        className="sticky top-16 z-[5] flex flex-wrap items-center gap-3 rounded-md border bg-background p-3"
        aria-live="polite"
      >
        <p className="text-sm">
          {cellCount === 0
            ? 'No unsaved changes.'
            : `${cellCount} change${cellCount === 1 ? '' : 's'} in ${changes.length} role${changes.length === 1 ? '' : 's'}, not saved yet.`}
        </p>
        <div className="ml-auto flex gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={cellCount === 0 || saving}
            onClick={() => setEdits(null)}
          >
            Discard
          </Button>
          <Button size="sm" disabled={cellCount === 0 || saving} onClick={save}>
            {saving ? 'Saving…' : 'Save changes'}
          </Button>
        </div>
      </div>
      {report && report.failed.length ? <SaveReportAlert report={report} /> : null}
      {error ? (
        <p role="alert" className="text-destructive">
          Could not load the matrix: {errorMessage(error)}
        </p>
      ) : loading ? (
        <Skeleton className="h-96 w-full" />
      ) : (
        <MatrixTable
          roles={roleList}
          groups={groups}
          draft={draft}
          lockOf={(role, permission) =>
            cellLockReason(role, permission, held, (id) => codeOf.get(id))
          }
          saving={saving}
          onToggle={toggle}
        />
      )}
      <LeaveGuard when={cellCount > 0 && !saving} />
    </div>
  );
}

/** The matrix: permissions by group as rows, roles as columns (scrolling under sticky headers). */
function MatrixTable({
  roles,
  groups,
  draft,
  lockOf,
  saving,
  onToggle,
}: {
  roles: Role[];
  groups: ReturnType<typeof groupPermissions>;
  draft: Record<string, Set<string>>;
  lockOf: (role: Role, permission: Permission) => string | null;
  saving: boolean;
  onToggle: (roleId: string, permissionId: string, on: boolean) => void;
}) {
  // Scrolls inside the window's height, so the header row with the role names stays in view.
  return (
    <div
      role="region"
      aria-label="Matrix, scrollable"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard
      tabIndex={0}
      className="max-h-[calc(100svh-16rem)] min-h-80 overflow-auto rounded-md border outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
    >
      <table className="w-full border-collapse text-sm" aria-label="Role–permission matrix">
        <thead>
          <tr className="border-b">
            <th
              scope="col"
              className="sticky top-0 left-0 z-30 bg-background px-3 py-2 text-left font-medium"
            >
              Permission
            </th>
            {roles.map((role) => (
              <th
                key={role._id}
                scope="col"
                className="sticky top-0 z-20 bg-background px-3 py-2 text-center font-medium whitespace-nowrap shadow-[inset_0_-1px_0_var(--border)]"
              >
                <Link
                  to={`/app/company/roles/${role._id}/read`}
                  className="underline-offset-4 hover:underline"
                >
                  {role.name}
                </Link>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map(([group, items]) => (
            <Fragment key={group}>
              <tr className="border-b bg-muted/50">
                <th
                  scope="colgroup"
                  colSpan={roles.length + 1}
                  className="px-3 py-1.5 text-left text-xs font-semibold tracking-wide uppercase"
                >
                  {/* The cell spans every column, so sticking it does nothing: its text sticks
                          instead, and stays in view when the matrix scrolls sideways. */}
                  <span className="sticky left-3">{group}</span>
                </th>
              </tr>
              {items.map((permission) => (
                <tr key={permission._id} className="border-b last:border-0">
                  <th
                    scope="row"
                    className="sticky left-0 z-10 bg-background px-3 py-1.5 text-left font-normal"
                  >
                    <span className="block">{permission.name}</span>
                    <span className="font-mono text-xs text-muted-foreground">
                      {permission.code}
                    </span>
                  </th>
                  {roles.map((role) => (
                    <MatrixCell
                      key={role._id}
                      role={role}
                      permission={permission}
                      lock={lockOf(role, permission)}
                      changed={isCellChanged(role, permission._id, draft)}
                      checked={draft[role._id]?.has(permission._id) ?? false}
                      saving={saving}
                      onToggle={(on) => onToggle(role._id, permission._id, on)}
                    />
                  ))}
                </tr>
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One role's hold of one permission: a checkbox, or a locked one with a tooltip saying why. */
function MatrixCell({
  role,
  permission,
  lock,
  changed,
  checked,
  saving,
  onToggle,
}: {
  role: Role;
  permission: Permission;
  lock: string | null;
  changed: boolean;
  checked: boolean;
  saving: boolean;
  onToggle: (on: boolean) => void;
}) {
  const label = `${role.name}: ${permission.code}`;
  const box = (
    <Checkbox
      checked={checked}
      disabled={!!lock || saving}
      aria-label={label}
      onCheckedChange={(on) => onToggle(on === true)}
    />
  );
  return (
    <td
      key={role._id}
      data-changed={changed || undefined}
      className={cn('px-3 py-1.5 text-center', changed && 'bg-amber-200/70 dark:bg-amber-500/30')}
    >
      {lock ? (
        <Tooltip>
          <TooltipTrigger asChild>
            <span
              // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a disabled control cannot take focus; this wrapper does, so keyboard users reach the tooltip saying why
              tabIndex={0}
              className="inline-flex rounded-sm p-1 outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
              aria-label={`${label} — locked: ${lock}`}
            >
              {box}
            </span>
          </TooltipTrigger>
          <TooltipContent className="max-w-72">{lock}</TooltipContent>
        </Tooltip>
      ) : (
        <span className="inline-flex p-1">{box}</span>
      )}
    </td>
  );
}

/** What a save could not do, role by role (and what it did). */
function SaveReportAlert({ report }: { report: SaveReport }) {
  return (
    <div
      role="alert"
      className="grid gap-1 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm"
    >
      {report.saved.length ? <p>Saved: {report.saved.join(', ')}.</p> : null}
      {report.failed.map((f) => (
        <p key={f.name} className="text-destructive">
          {f.name}: {f.message}
        </p>
      ))}
    </div>
  );
}
