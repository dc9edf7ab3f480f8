import { Eye, Pencil, Trash2 } from 'lucide-react';
import { GatedButton } from '@/components/permission-gate';
import type { PermissionCode } from '@/lib/permission-gate';

/** A row's View, Edit and Delete buttons, each shown to those who hold its permission. */
export function RowActions({
  id,
  name,
  basePath,
  permissions,
  blockedReason,
}: {
  id: string;
  name: string;
  basePath: string;
  permissions: { read: PermissionCode; update?: PermissionCode; delete?: PermissionCode };
  /** Why this row cannot be deleted (the trash button is then disabled with it). */
  blockedReason: string | null;
}) {
  return (
    <div className="flex gap-1">
      <GatedButton
        need={permissions.read}
        to={`${basePath}/${id}/read`}
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={`View ${name}`}
      >
        <Eye aria-hidden="true" />
      </GatedButton>
      {permissions.update ? (
        <GatedButton
          need={permissions.update}
          to={`${basePath}/${id}/update`}
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={`Edit ${name}`}
        >
          <Pencil aria-hidden="true" />
        </GatedButton>
      ) : null}
      {permissions.delete ? (
        <GatedButton
          need={permissions.delete}
          to={`${basePath}/${id}/delete`}
          variant="ghost"
          size="icon"
          className="size-8 text-destructive hover:text-destructive"
          aria-label={`Delete ${name}`}
          blockedReason={blockedReason}
        >
          <Trash2 aria-hidden="true" />
        </GatedButton>
      ) : null}
    </div>
  );
}
