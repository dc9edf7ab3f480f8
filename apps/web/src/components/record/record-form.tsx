import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues } from 'react-hook-form';
import { PageTitle } from '@/components/page-title';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { useRecordEditor } from '@/hooks/use-record-editor';
import { useThunkDispatch } from '@/hooks/use-thunk-dispatch';
import { RecordFormActions } from './form-actions';
import { ChoicesLoaded, type ChoiceList } from './form-choices';
import { LeaveGuard } from './leave-guard';
import { viewPathOf, type RecordDefinition, type Versioned } from './record-definition';
import { StaleEditDialog } from './stale-edit-dialog';

const noChoices = () => ({ lists: [], what: '', context: undefined });

/**
 * The create or edit form of a record: title, the type's fields, server errors under their fields,
 * save and cancel, the leave guard and the stale-edit dialog (hooks/use-record-editor).
 */
export function RecordFormCard<T extends Versioned, V extends FieldValues, C>({
  definition: resource,
  record,
}: {
  definition: RecordDefinition<T, V, C>;
  record?: T;
}) {
  const def = resource.form;
  const dispatch = useThunkDispatch();
  const [create] = def.useCreate();
  const [update] = def.useUpdate();
  const choices = (def.useChoices ?? noChoices)() as {
    lists: ChoiceList[];
    what: string;
    context: C;
  };
  const form = useForm<V, unknown, V>({
    resolver: zodResolver(def.schema(record)),
    defaultValues: (record ? def.toValues(record) : def.empty) as never,
  });
  const editor = useRecordEditor<T, V>({
    record,
    form,
    toValues: def.toValues,
    create: (values) => create(values).unwrap(),
    update: (id, body) => update({ id, body }).unwrap(),
    fetchFresh: (id) =>
      (
        dispatch(def.endpoint.initiate(id, { forceRefetch: true, subscribe: false }) as never) as {
          unwrap: () => Promise<T>;
        }
      ).unwrap(),
    noun: resource.noun,
    nameOf: resource.nameOf,
    viewPath: (id) => viewPathOf(resource, id),
    conflictField: def.conflictField,
  });
  const { isDirty, isSubmitting } = form.formState;
  const title = record
    ? `Edit ${resource.noun} ${resource.nameOf(record)}`
    : `Create ${resource.noun}`;
  const { Fields } = def;
  const body = (
    <form onSubmit={editor.submit} noValidate className="grid gap-4">
      {editor.formError ? <FormAlert>{editor.formError}</FormAlert> : null}
      <Fields form={form} record={record} base={editor.base} context={choices.context} />
      <RecordFormActions
        submitting={isSubmitting}
        editing={!!record}
        createLabel={`Create ${resource.noun}`}
        cancelTo={record ? viewPathOf(resource, record._id) : resource.listPath}
      />
    </form>
  );
  return (
    <Card className={def.className}>
      <PageTitle title={title} />
      <CardHeader>
        <CardTitle level={1}>{title}</CardTitle>
        <CardDescription>{def.description(record)}</CardDescription>
      </CardHeader>
      <CardContent>
        {choices.lists.length ? (
          <ChoicesLoaded lists={choices.lists} what={choices.what}>
            {body}
          </ChoicesLoaded>
        ) : (
          body
        )}
      </CardContent>
      <LeaveGuard when={isDirty} bypass={editor.leaving} />
      <StaleEditDialog
        conflict={editor.stale}
        base={editor.base}
        labels={def.labels}
        format={def.format?.(choices.context)}
        onReload={editor.reloadTheirs}
        onOverwrite={() => void editor.overwrite()}
        onCancel={editor.cancelStale}
      />
    </Card>
  );
}
