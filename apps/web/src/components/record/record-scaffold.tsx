import type * as React from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { FieldValues } from 'react-hook-form';
import { ForbiddenState } from '@/components/forbidden-state';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { errorMessage } from '@/lib/api/api-error';
import { useBreadcrumbLabel } from '@/lib/breadcrumb-labels';
import { DeleteConfirm } from './delete-confirm';
import {
  viewPathOf,
  type RecordDefinition,
  type RecordResource,
  type Versioned,
} from './record-definition';
import { RecordFormCard } from './record-form';
import { RecordState } from './record-state';
import { deletedToast } from './undo-toast';

/** The record of `id`, its name shown in the breadcrumb once known. */
function useRecordOf<T>(resource: RecordResource<T>, id: string) {
  const result = resource.useQuery(id);
  useBreadcrumbLabel(id, result.data ? resource.nameOf(result.data) : undefined);
  return result;
}

/** A record's read page: loading, 404, 403 and error states, then `children`. */
function RecordViewPage<T>({
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

/** The page of `verb`, or why not: the permission is checked before the record is asked for. */
function Permitted<T>({
  resource,
  verb,
  children,
}: {
  resource: RecordResource<T>;
  verb: 'create' | 'update' | 'delete';
  children: React.ReactNode;
}) {
  const missing = useMissingPermissions(resource.need[verb]);
  const doing = { create: 'creating', update: 'editing', delete: 'deleting' }[verb];
  if (missing.length) return <ForbiddenState need={missing} what={`${doing} ${resource.plural}`} />;
  return <>{children}</>;
}

/** A record page of `verb`: the permission first, then the record's states, then `children`. */
function RecordPage<T>({
  resource,
  verb,
  id,
  children,
}: {
  resource: RecordResource<T>;
  verb: 'update' | 'delete';
  id: string;
  children: (record: T) => React.ReactNode;
}) {
  return (
    <Permitted resource={resource} verb={verb}>
      <RecordViewPage resource={resource} id={id}>
        {children}
      </RecordViewPage>
    </Permitted>
  );
}

/**
 * The pages of a record type from its definition: View (laid out by the type, usually with
 * `RecordDetails`), Create and Edit (the form), and Delete — what goes, a protected record's
 * reason, then the delete, a "deleted" toast with Undo for those who may restore, and back to the
 * list.
 */
export function recordPages<T extends Versioned, V extends FieldValues, C>(
  definition: RecordDefinition<T, V, C>,
) {
  return {
    View: ({ id, children }: { id: string; children: (record: T) => React.ReactNode }) => (
      <RecordViewPage resource={definition} id={id}>
        {children}
      </RecordViewPage>
    ),
    Create: () => (
      <Permitted resource={definition} verb="create">
        <RecordFormCard definition={definition} />
      </Permitted>
    ),
    Edit: ({ id }: { id: string }) => (
      <RecordPage resource={definition} verb="update" id={id}>
        {(record) => <RecordFormCard key={record._id} definition={definition} record={record} />}
      </RecordPage>
    ),
    Delete: ({ id }: { id: string }) => (
      <RecordPage resource={definition} verb="delete" id={id}>
        {(record) => <DeleteRecord definition={definition} record={record} />}
      </RecordPage>
    ),
  };
}

function DeleteRecord<T extends Versioned, V extends FieldValues, C>({
  definition: def,
  record,
}: {
  definition: RecordDefinition<T, V, C>;
  record: T;
}) {
  const navigate = useNavigate();
  const [remove] = def.useRemove();
  const [restore] = def.useRestore();
  const canRestore = useMissingPermissions(def.restoreNeed ?? []).length === 0;
  const { what, block } = def.useDeleteWording()(record);
  const undo = canRestore
    ? 'You can undo it for a few seconds afterwards.'
    : 'This cannot be undone.';
  const label = `${def.noun.charAt(0).toUpperCase()}${def.noun.slice(1)}`;
  return (
    <DeleteConfirm
      title={`Delete ${def.noun} ${def.nameOf(record)}?`}
      what={[...what.slice(0, -1), `${what.at(-1) ?? ''} ${undo}`]}
      block={block}
      cancelTo={viewPathOf(def, record._id)}
      onConfirm={async () => {
        try {
          await remove(record._id).unwrap();
          deletedToast(
            `${label} “${def.nameOf(record)}”`,
            canRestore ? () => restore(record._id).unwrap() : null,
          );
          void navigate(def.listPath);
        } catch (error) {
          toast.error(errorMessage(error));
        }
      }}
    />
  );
}
