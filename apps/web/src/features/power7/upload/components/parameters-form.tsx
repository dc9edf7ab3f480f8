import { zodResolver } from '@hookform/resolvers/zod';
import { FileSpreadsheet, Upload, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import {
  DEFAULT_POOL,
  uploadFormFromParams,
  uploadFormSchema,
  type Power7Session,
  type SessionParams,
  type UploadFormInput,
} from '@pa/contracts/power7';
import { PageTitle } from '@/components/page-title';
import { LeaveGuard } from '@/components/record/leave-guard';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ScrollRegion } from '@/components/ui/table';
import { FormAlert } from '@/components/ui/form-field';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';
import {
  power7Endpoints,
  usePower7ServiceStatusQuery,
  usePower7SessionsQuery,
  useProcessingStatusQuery,
} from '../../api/power7-endpoints';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { useCustomerUpload } from '../hooks/use-customer-upload';
import { unreachableMessage } from '../../hooks/use-power7-request';
import { previewFile, type FilePreview } from '../../lib/csv-preview';
import { useCountdown } from '../../hooks/use-countdown';
import { formatBytes } from '../../lib/format';
import { timeLeftText } from '../../lib/time-left';
import type { UploadProgress } from '../lib/upload';
import { NoPermission, StepHeader } from '../../components/common';
import { BudgetFields, CurrencyField, PayoutInputs, PoolField } from './scenario-fields';
import { useDispatch } from 'react-redux';
import { skipToken } from '@reduxjs/toolkit/query';

export const EMPTY_FORM: Required<UploadFormInput> = {
  budget_type: 'fixed',
  budget: '',
  budget_min: '',
  budget_max: '',
  payout_3: '',
  payout_4: '',
  payout_5: '',
  payout_6: '',
  payout_7: '',
  pool_size: String(DEFAULT_POOL),
  currency: '',
};

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
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<FilePreview | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const upload = useCustomerUpload();
  // the session of an accepted upload: the page then goes on to its progress without asking
  const [accepted, setAccepted] = useState<string | null>(null);
  useEffect(() => {
    if (accepted) void navigate(`/app/power7/process?session=${encodeURIComponent(accepted)}`);
  }, [accepted, navigate]);
  const {
    register,
    handleSubmit,
    control,
    getValues,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<UploadFormInput, unknown, SessionParams>({
    resolver: zodResolver(uploadFormSchema),
    defaultValues: EMPTY_FORM,
  });
  const budgetType = useWatch({ control, name: 'budget_type' });
  const uploadMaxBytes = usePower7ServiceStatusQuery().data?.uploadMaxBytes;
  // derived, so a limit that arrives after the file was chosen still applies
  const fileProblem = (file && fileSizeProblem(file.size, uploadMaxBytes)) ?? fileError;
  const [usingDefaults, setUsingDefaults] = useState(false);

  useEffect(() => {
    if (defaults.params && !isDirty) reset(uploadFormFromParams(defaults.params));
    // only when the defaults arrive
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [defaults.params, reset]);

  const chooseFile = async (chosen: File | undefined) => {
    setFileError(null);
    setFile(chosen ?? null);
    setPreview(null);
    if (!chosen) return;
    const result = await previewFile(chosen);
    setPreview(result);
    if (result.kind === 'unreadable') setFileError(result.reason);
    else if (result.kind === 'csv' && !result.columns) {
      setFileError(
        'No number columns found in the header: expected n1..n7 or number1..number7, or one column named numbers, combination or ticket.',
      );
    }
  };

  const onSubmit = handleSubmit(async (_params, event) => {
    event?.preventDefault();
    setFormError(null);
    if (!file) {
      setFileError('Choose a customer file (CSV or XLSX).');
      return;
    }
    if (fileProblem) return;
    try {
      const answer = await upload.send(file, getValues());
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
        } else if (item.field && item.field in EMPTY_FORM) {
          setError(item.field as keyof UploadFormInput, { message: item.message });
          placed = true;
        }
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
        <Card>
          <CardHeader>
            <CardTitle>Customer file</CardTitle>
            <CardDescription>
              CSV or XLSX; one ticket of seven numbers per row, in columns n1..n7 (or one column
              named numbers), with optional customer id, name and phone columns.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <FileDrop
              file={file}
              onFile={(f) => void chooseFile(f)}
              error={fileProblem}
              disabled={uploading}
            />
            {file && preview?.kind === 'csv' ? <CsvPreviewTable preview={preview} /> : null}
            {file && preview?.kind === 'xlsx' ? (
              <p className="text-muted-foreground text-sm">
                An Excel workbook: its first sheet is read on the server (no preview here).
              </p>
            ) : null}
          </CardContent>
        </Card>

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

function FileDrop({
  file,
  onFile,
  error,
  disabled,
}: {
  file: File | null;
  onFile: (file: File | undefined) => void;
  error: string | null;
  disabled: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  return (
    <div className="grid gap-2">
      <div
        data-testid="power7-dropzone"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          if (!disabled) onFile(event.dataTransfer.files[0]);
        }}
        className={cn(
          'flex flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed p-6 text-center transition-colors',
          over ? 'border-primary bg-primary/5' : 'border-border',
          error ? 'border-destructive' : '',
        )}
      >
        <FileSpreadsheet className="text-muted-foreground size-8" aria-hidden="true" />
        {file ? (
          <p className="text-sm">
            <span className="font-medium break-all">{file.name}</span>{' '}
            <span className="text-muted-foreground">({formatBytes(file.size)})</span>
          </p>
        ) : (
          <p className="text-muted-foreground text-sm">Drag the customer file here, or</p>
        )}
        <Button
          type="button"
          variant="outline"
          disabled={disabled}
          onClick={() => input.current?.click()}
        >
          {file ? 'Choose another file' : 'Browse for a file'}
        </Button>
        <input
          ref={input}
          id="customer_file"
          type="file"
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          className="sr-only"
          tabIndex={-1}
          aria-label="Customer file"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'customer_file-error' : undefined}
          onChange={(event) => {
            onFile(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </div>
      {error ? (
        <p id="customer_file-error" role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const ROLE_LABEL = { numbers: 'numbers', id: 'customer id', name: 'name', phone: 'phone' } as const;

function CsvPreviewTable({ preview }: { preview: Extract<FilePreview, { kind: 'csv' }> }) {
  const roles = new Map<number, string>();
  const cols = preview.columns;
  if (cols) {
    if (cols.numbers.kind === 'seven')
      cols.numbers.indexes.forEach((i, k) => roles.set(i, `n${k + 1}`));
    else roles.set(cols.numbers.index, ROLE_LABEL.numbers);
    if (cols.id >= 0) roles.set(cols.id, ROLE_LABEL.id);
    if (cols.name >= 0) roles.set(cols.name, ROLE_LABEL.name);
    if (cols.phone >= 0) roles.set(cols.phone, ROLE_LABEL.phone);
  }
  const delimiterName =
    preview.delimiter === ',' ? 'comma' : preview.delimiter === ';' ? 'semicolon' : 'tab';
  return (
    <div className="grid gap-2" data-testid="power7-preview">
      <p className="text-muted-foreground text-sm">
        Preview of the first rows ({delimiterName}-separated). Highlighted columns are the ones the
        analysis reads.
      </p>
      <ScrollRegion label="Preview of the file" className="border">
        <table className="w-full text-sm">
          <caption className="sr-only">First rows of the customer file</caption>
          <thead>
            <tr className="border-b">
              {preview.header.map((name, i) => (
                <th
                  key={i}
                  scope="col"
                  className={cn(
                    'px-2 py-1.5 text-left font-medium whitespace-nowrap',
                    roles.has(i) ? 'bg-primary/10' : '',
                  )}
                >
                  {name || `column ${i + 1}`}
                  {roles.has(i) ? (
                    <span className="text-primary block text-xs font-normal">{roles.get(i)}</span>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row, r) => (
              <tr key={r} className="border-b last:border-0">
                {preview.header.map((_, i) => (
                  <td
                    key={i}
                    className={cn(
                      'px-2 py-1 whitespace-nowrap',
                      roles.has(i) ? 'bg-primary/5' : '',
                    )}
                  >
                    {row[i] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
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
