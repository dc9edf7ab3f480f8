import { Play } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import { uploadFormFromParams, type Power7Status, type RerunBody } from '@pa/contracts/power7';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, fieldErrors } from '@/lib/api/api-error';
import { useProcessingStatusQuery } from '../../api/power7-endpoints';
import { useRerunSessionMutation } from '../../api/scenario-endpoints';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { formatCount } from '../../lib/format';
import { LoadError, NoPermission, StepHeader } from '../../components/common';
import { uploadFields } from '../../upload/hooks/use-customer-upload';
import { placeFieldError, useParamsForm } from '../../upload/hooks/use-params-form';
import { ScenarioFields } from '../../upload/components/scenario-fields';

/**
 * `/app/power7/rerun?session=`: the parameters of a finished session, prefilled, without the file;
 * "Run again" analyses the stored tickets with the new ones as a new session (no upload).
 */
export function RerunView() {
  const access = usePower7Access();
  const [search] = useSearchParams();
  const session = search.get('session');
  const status = useProcessingStatusQuery(session && access.canRun ? { session } : skipToken);
  const header = (
    <>
      <PageTitle title="Power 7 · Try other payouts or budget" />
      <StepHeader
        title="Try other payouts or budget"
        description="The same customer file, analysed again with other parameters: nothing is uploaded, the tickets already read are reused (with another pool the stored rows are read again)."
      />
    </>
  );
  let body: ReactNode;
  if (!access.canRun) {
    body = <NoPermission permission={POWER7_PERMISSIONS.run} what="run Power 7 analyses" />;
  } else if (!session) {
    body = (
      <LoadError error={{ status: 404 }} onRetry={() => undefined} title="No session chosen" />
    );
  } else if (status.error) {
    body = <LoadError error={status.error} onRetry={() => void status.refetch()} />;
  } else if (!status.data) {
    body = <Skeleton className="h-96" aria-label="Loading the session" />;
  } else {
    body = <RerunForm status={status.data} />;
  }
  return (
    <div className="grid grid-cols-1 gap-6">
      {header}
      {body}
    </div>
  );
}

function RerunForm({ status }: { status: Power7Status }) {
  const navigate = useNavigate();
  const [rerun, running] = useRerunSessionMutation();
  const form = useParamsForm();
  const { register, budgetType, reset } = form;
  const errors = form.formState.errors;
  // an error no field names (the session gone, the quota used up)
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => reset(uploadFormFromParams(status.params)), [status.params, reset]);

  const onSubmit = form.handleSubmit(async () => {
    setFormError(null);
    try {
      const created = await rerun({
        session: status._id,
        body: uploadFields(form.getValues()) as RerunBody,
      }).unwrap();
      void navigate(`/app/power7/process?session=${encodeURIComponent(created._id)}`);
    } catch (error) {
      const fields = Object.entries(fieldErrors(error));
      for (const [field, message] of fields) placeFieldError(form, field, message);
      if (!fields.length) setFormError(errorMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-6" aria-label="Rerun parameters">
      {formError ? <FormAlert>{formError}</FormAlert> : null}
      <Card>
        <CardHeader>
          <CardTitle>{status.name ?? status.originalName ?? 'Customer file'}</CardTitle>
          <CardDescription>
            {formatCount(status.counts.accepted ?? 0)} tickets read from{' '}
            {status.originalName ?? 'the uploaded file'}; the current parameters are filled in.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ScenarioFields register={register} errors={errors} budgetType={budgetType} />
        </CardContent>
      </Card>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={running.isLoading}>
          <Play className="size-4" aria-hidden="true" /> Run again
        </Button>
        <Button asChild variant="outline">
          <Link to={`/app/power7/process?session=${encodeURIComponent(status._id)}`}>Cancel</Link>
        </Button>
      </div>
    </form>
  );
}
