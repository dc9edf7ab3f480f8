import type { Paginated } from '@pa/contracts/list-query';
import type { IdMutation } from '@/components/record/record-definition';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { useThunkDispatch } from '@/hooks/use-thunk-dispatch';
import type { ListQueryArgs } from '@/lib/list-url';
import type { ResourceListProps } from './list-types';

const noMutation = () => [null] as const;

/** A mutation hook's call for one id, or undefined without the hook. */
function useIdAction(hook: IdMutation | undefined) {
  const [trigger] = (hook ?? noMutation)();
  return trigger ? (id: string) => trigger(id).unwrap() : undefined;
}

/**
 * What a list screen does through its endpoints: fetch one page for the CSV export, delete a row,
 * and restore deleted rows — the last only for those who may undo a delete.
 */
export function useListActions<T>(props: ResourceListProps<T & { _id: string }>) {
  const dispatch = useThunkDispatch();
  const deleteOne = useIdAction(props.useRemove);
  const restoreOne = useIdAction(props.useRestore);
  const canRestore = useMissingPermissions(props.restoreNeed ?? []).length === 0;
  return {
    fetchPage: (args: ListQueryArgs) =>
      (
        dispatch(
          props.endpoint.initiate(args, { subscribe: false, forceRefetch: true }) as never,
        ) as { unwrap: () => Promise<Paginated<T>> }
      ).unwrap(),
    deleteOne,
    restoreMany:
      restoreOne && canRestore
        ? async (ids: string[]) => {
            for (const id of ids) await restoreOne(id);
          }
        : undefined,
  };
}
