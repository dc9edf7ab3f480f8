import { Upload, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import {
  DEFAULT_POOL,
  uploadFormFromParams,
  type Power7Session,
  type SessionParams,
  type UploadFormInput,
} from '@pa/contracts/power7';
import { PageTitle } from '@/components/page-title';
import { LeaveGuard } from '@/components/record/leave-guard';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Progress } from '@/components/ui/progress';
import {
  power7Endpoints,
  usePower7ServiceStatusQuery,
  usePower7SessionsQuery,
  useProcessingStatusQuery,
} from '../../api/power7-endpoints';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { useCustomerUpload } from '../hooks/use-customer-upload';
import { EMPTY_FORM, placeFieldError, useParamsForm } from '../hooks/use-params-form';
import { unreachableMessage } from '../../hooks/use-power7-request';
import { useCountdown } from '../../hooks/use-countdown';
import { formatBytes } from '../../lib/format';
import { timeLeftText } from '../../lib/time-left';
import type { UploadProgress } from '../lib/upload';
import { NoPermission, StepHeader } from '../../components/common';
import { CustomerFileCard, useChosenFile } from './customer-file';
import { BudgetFields, CurrencyField, PayoutInputs, PoolField } from './scenario-fields';

interface DefaultParams {
  params: SessionParams | null;
  /** The file of the session they come from, to say so on the form. */
  source: string | null;
  ready: boolean;
}

/** Defaults: the session named by `?from=` (a new analysis with the same parameters), else the latest one. */
function useDefaultParams(): DefaultParams {
  const [search] = useSearchParams();
  const from = search.get('from');
  const named = useProcessingStatusQuery(from ? { session: from } : skipToken);
  const latest = usePower7SessionsQuery({ page: 1, pageSize: 1 }, { skip: Boolean(from) });
  if (from) {
    const params = named.data?.params ?? null;
    const source = params ? (named.data?.originalName ?? 'an earlier analysis') : null;
    return { params, source, ready: !named.isLoading };
  }
  const last: Power7Session | undefined = latest.data?.items[0];
  const source = last ? (last.originalName ?? 'your last analysis') : null;
  return { params: last?.params ?? null, source, ready: !latest.isLoading };
}

/** What leaving the page mid-upload asks. */
const UPLOAD_IN_FLIGHT = {
  title: 'Leave while the file is uploading?',
  description: 'The upload stops and the file is not analysed.',
  stay: 'Keep uploading',
  leave: 'Stop the upload and leave',
};

/** The file's size against the service's limit, checked before a byte is sent. */
export function fileSizeProblem(bytes: number, limit: number | undefined): string | null {
  if (limit === undefined || bytes <= limit) return null;
  return `This file is ${formatBytes(bytes)}; the largest file the service accepts is ${formatBytes(limit)}. Split it or remove columns the analysis does not need.`;
}

export function ParametersForm() {
  const access = usePower7Access();
  if (!access.canRun) {
    return (
      <div className="grid grid-cols-1 gap-6">
        <PageTitle title="Power 7 · Parameters" />
        <StepHeader title="New analysis" />
        <NoPermission permission={POWER7_PERMISSIONS.run} what="run Power 7 analyses" />
      </div>
    );
  }
  return <ParametersFormInner />;
}

function ParametersFormInner() {
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const defaults = useDefaultParams();
  const chosen = useChosenFile();
  const [formError, setFormError] = useState<string | null>(null);
  const upload = useCustomerUpload();
  // the session of an accepted upload: the page then goes on to its progress without asking
  const [accepted, setAccepted] = useState<string | null>(null);
  useEffect(() => {
    if (accepted) void navigate(`/app/power7/process?session=${encodeURIComponent(accepted)}`);
  }, [accepted, navigate]);
  const form = useParamsForm();
  const { register, reset, budgetType } = form;
  const { errors, isSubmitting, isDirty } = form.formState;
  const uploadMaxBytes = usePower7ServiceStatusQuery().data?.uploadMaxBytes;
  // derived, so a limit that arrives after the file was chosen still applies
  const { file, setFileError } = chosen;
  const fileProblem = (file && fileSizeProblem(file.size, uploadMaxBytes)) ?? chosen.fileError;
  const [usingDefaults, setUsingDefaults] = useState(false);

  useEffect(() => {
    if (defaults.params && !isDirty) reset(uploadFormFromParams(defaults.params));
    // only when the defaults arrive
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [defaults.params, reset]);

  const onSubmit = form.handleSubmit(async (_params, event) => {
    event?.preventDefault();
    setFormError(null);
    if (!file) {
      setFileError('Choose a customer file (CSV or XLSX).');
      return;
    }
    if (fileProblem) return;
    try {
      const answer = await upload.send(file, form.getValues());
      if (!answer) return;
      const { envelope, status } = answer;
      if (status === 202 && envelope.success) {
        dispatch(power7Endpoints.util.invalidateTags(['Power7Process']));
        setAccepted((envelope.data as Power7Session)._id);
        return;
      }
      let placed = false;
      for (const item of envelope.errors) {
        if (item.field === 'customer_file') {
          setFileError(item.message);
          placed = true;
        } else if (placeFieldError(form, item.field, item.message)) placed = true;
      }
      if (!placed) setFormError(envelope.message || `The upload failed (${status}).`);
    } catch (error) {
      if ((error as Error).name === 'AbortError') setFormError('The upload was cancelled.');
      else setFormError(unreachableMessage(error));
    }
  });

  const progress = upload.progress;
  const uploading = progress !== null;
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageTitle title="Power 7 · Parameters" />
      <LeaveGuard when={uploading && !accepted} wording={UPLOAD_IN_FLIGHT} />
      <StepHeader
        title="New analysis"
        description="Choose the customer file, the budget and the payout of each match type. Every possible draw of the pool is then analysed."
      />
      <form noValidate onSubmit={onSubmit} className="grid gap-6" aria-label="Analysis parameters">
        {formError ? <FormAlert>{formError}</FormAlert> : null}
        {defaults.params && defaults.source && !usingDefaults ? (
          <CarriedOverNotice
            source={defaults.source}
            params={defaults.params}
            onReset={() => {
              setUsingDefaults(true);
              reset(EMPTY_FORM);
            }}
          />
        ) : null}
        <CustomerFileCard chosen={chosen} error={fileProblem} disabled={uploading} />

        <BudgetCard register={register} errors={errors} budgetType={budgetType} />

        <PayoutsCard register={register} errors={errors} />

        {uploading ? (
          <UploadProgressPanel progress={progress} onCancel={upload.cancel} />
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={isSubmitting || !defaults.ready}>
              <Upload className="size-4" aria-hidden="true" /> Upload and analyse
            </Button>
            <Button type="button" variant="outline" onClick={() => navigate('/app/power7')}>
              Cancel
            </Button>
          </div>
        )}
      </form>
    </div>
  );
}

interface FieldsProps {
  register: UseFormRegister<UploadFormInput>;
  errors: FieldErrors<UploadFormInput>;
}

/** Fixed budget or range, with the fields of the chosen type. */
function BudgetCard({
  register,
  errors,
  budgetType,
}: FieldsProps & { budgetType: UploadFormInput['budget_type'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Budget</CardTitle>
        <CardDescription>
          A draw qualifies when the total payout to its winners is within the budget.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <BudgetFields register={register} errors={errors} budgetType={budgetType} />
      </CardContent>
    </Card>
  );
}

/** The prize per match type, the pool size and the currency. */
function PayoutsCard({ register, errors }: FieldsProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payouts and pool</CardTitle>
        <CardDescription>
          The prize of one winning ticket per number of matches (0 or more, at least one above 0),
          and how many numbers a draw is picked from.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <PayoutInputs register={register} errors={errors} />
        <PoolField register={register} errors={errors} />
        <CurrencyField error={errors.currency?.message} {...register('currency')} />
      </CardContent>
    </Card>
  );
}

/** Says where the filled-in values come from, the pool above all (it changes every figure). */
function CarriedOverNotice({
  source,
  params,
  onReset,
}: {
  source: string;
  params: SessionParams;
  onReset: () => void;
}) {
  return (
    <div
      className="bg-muted/50 flex flex-wrap items-center justify-between gap-3 rounded-md border px-4 py-3 text-sm"
      data-testid="power7-carried-over"
    >
      <p>
        Filled in from <span className="font-medium">{source}</span>: pool of{' '}
        <span className="font-medium">{params.pool_size}</span> numbers
        {params.pool_size === DEFAULT_POOL ? ' (the default)' : ` (the default is ${DEFAULT_POOL})`}
        , budget and payouts as they were.
      </p>
      <Button type="button" variant="outline" size="sm" onClick={onReset}>
        Start from the defaults
      </Button>
    </div>
  );
}

function UploadProgressPanel({
  progress,
  onCancel,
}: {
  progress: UploadProgress;
  onCancel: () => void;
}) {
  const percent = progress.total ? Math.round((progress.loaded / progress.total) * 100) : 0;
  const left = useCountdown(progress.secondsLeft, progress.at);
  return (
    <Card data-testid="power7-upload-progress">
      <CardContent className="grid gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
          <span className="font-medium">Uploading… {percent} %</span>
          <span className="text-muted-foreground tabular-nums">
            {formatBytes(progress.loaded)} of {formatBytes(progress.total)}
            {progress.bytesPerSecond > 0 ? ` · ${formatBytes(progress.bytesPerSecond)}/s` : ''}
            {left !== null ? ` · ${timeLeftText(left)} left` : ''}
          </span>
        </div>
        <Progress value={percent} aria-label="Upload progress" />
        <div>
          <Button type="button" variant="outline" onClick={onCancel}>
            <X className="size-4" aria-hidden="true" /> Cancel upload
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
