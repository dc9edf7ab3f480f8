import type * as React from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ForbiddenState } from '@/components/forbidden-state';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { errorMessage } from '@/lib/api/api-error';
import { useBreadcrumbLabel } from '@/lib/breadcrumb-labels';
import type { PermissionCode } from '@/lib/permission-gate';
import { DeleteConfirm } from './delete-confirm';
import { RecordState } from './record-state';
import { deletedToast } from './undo-toast';

/** What the record pages of one resource (users, roles, permissions) share. */
export interface RecordResource<T> {
  noun: string;
  plural: string;
  listPath: string;
  need: {
    read: PermissionCode;
    create: PermissionCode;
    update: PermissionCode;
    delete: PermissionCode;
  };
  /** The record query of `id` (an RTK Query hook). */
  useQuery: (id: string) => {
    data?: T;
    error?: unknown;
    isLoading: boolean;
    refetch: () => unknown;
  };
  /** The record's name, for the breadcrumb and the messages. */
  nameOf: (record: T) => string;
}

export const viewPathOf = (resource: { listPath: string }, id: string) =>
  `${resource.listPath}/${id}/read`;

/** The record of `id`, its name shown in the breadcrumb once known. */
export function useRecordOf<T>(resource: RecordResource<T>, id: string) {
  const result = resource.useQuery(id);
  useBreadcrumbLabel(id, result.data ? resource.nameOf(result.data) : undefined);
  return result;
}

/** A record's read page: loading, 404, 403 and error states, then `children`. */
export function RecordViewPage<T>({
  resource,
  id,
  children,
}: {
  resource: RecordResource<T>;
  id: string;
  children: (record: T) => React.ReactNode;
}) {
  const result = useRecordOf(resource, id);
  return (
    <RecordState
      {...result}
      noun={resource.noun}
      listPath={resource.listPath}
      need={resource.need.read}
    >
      {children}
    </RecordState>
  );
}

/** The create page: the form for those who hold the create permission, else why not. */
export function RecordCreatePage<T>({
  resource,
  children,
}: {
  resource: RecordResource<T>;
  children: React.ReactNode;
}) {
  const missing = useMissingPermissions(resource.need.create);
  if (missing.length) return <ForbiddenState need={missing} what={`creating ${resource.plural}`} />;
  return <>{children}</>;
}

/** The edit page: the permission first, then the record's states, then the form. */
export function RecordEditPage<T>({
  resource,
  id,
  children,
}: {
  resource: RecordResource<T>;
  id: string;
  children: (record: T) => React.ReactNode;
}) {
  const missing = useMissingPermissions(resource.need.update);
  if (missing.length) return <ForbiddenState need={missing} what={`editing ${resource.plural}`} />;
  return (
    <RecordViewPage resource={resource} id={id}>
      {children}
    </RecordViewPage>
  );
}

/**
 * The delete page: what goes, a protected record's reason, then the delete, a "deleted" toast with
 * Undo for those who may restore, and back to the list.
 */
export function RecordDeletePage<T extends { _id: string }>({
  resource,
  id,
  confirm,
  remove,
  restore,
}: {
  resource: RecordResource<T>;
  id: string;
  confirm: (
    record: T,
  ) => Pick<React.ComponentProps<typeof DeleteConfirm>, 'title' | 'what' | 'block'>;
  remove: (id: string) => Promise<unknown>;
  /** Brings it back (null: no Undo, e.g. without the create permission). */
  restore: ((id: string) => Promise<unknown>) | null;
}) {
  const navigate = useNavigate();
  const missing = useMissingPermissions(resource.need.delete);
  if (missing.length) return <ForbiddenState need={missing} what={`deleting ${resource.plural}`} />;
  const label = `${resource.noun.charAt(0).toUpperCase()}${resource.noun.slice(1)}`;
  return (
    <RecordViewPage resource={resource} id={id}>
      {(record) => (
        <DeleteConfirm
          {...confirm(record)}
          cancelTo={viewPathOf(resource, record._id)}
          onConfirm={async () => {
            try {
              await remove(record._id);
              deletedToast(
                `${label} “${resource.nameOf(record)}”`,
                restore ? () => restore(record._id) : null,
              );
              void navigate(resource.listPath);
            } catch (error) {
              toast.error(errorMessage(error));
            }
          }}
        />
      )}
    </RecordViewPage>
  );
}
