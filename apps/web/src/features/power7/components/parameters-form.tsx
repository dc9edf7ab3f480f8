import { zodResolver } from '@hookform/resolvers/zod';
import { FileSpreadsheet, Upload, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import {
  DEFAULT_POOL,
  MAX_POOL,
  MIN_POOL,
  PAYOUT_FIELDS,
  uploadFormFromParams,
  uploadFormSchema,
  type Power7Session,
  type SessionParams,
  type UploadFormInput,
} from '@pa/contracts/power7';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert, FormField } from '@/components/ui/form-field';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';
import {
  power7Endpoints,
  usePower7SessionsQuery,
  useProcessingStatusQuery,
} from '../api/power7-endpoints';
import { POWER7_PERMISSIONS, usePower7Access } from '../hooks/use-power7-access';
import { power7Url, usePower7Headers } from '../hooks/use-power7-request';
import { previewFile, type FilePreview } from '../lib/csv-preview';
import { formatBytes, formatSeconds } from '../lib/format';
import { sendUpload, type UploadProgress } from '../lib/upload';
import { NoPermission, StepHeader } from './common';
import { CurrencyField } from './scenario-fields';
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

/** The form's fields as the upload sends them (only the fields of the chosen budget type). */
export function uploadFields(values: UploadFormInput): Record<string, string> {
  const fields: Record<string, string> = { budget_type: values.budget_type };
  if (values.budget_type === 'fixed') fields.budget = values.budget ?? '';
  else {
    fields.budget_min = values.budget_min ?? '';
    fields.budget_max = values.budget_max ?? '';
  }
  for (const field of PAYOUT_FIELDS) fields[field] = values[field] ?? '';
  if (values.pool_size?.trim()) fields.pool_size = values.pool_size.trim();
  if (values.currency?.trim()) fields.currency = values.currency.trim();
  return fields;
}

/** Defaults: the session named by `?from=` (a new analysis with the same parameters), else the latest one. */
function useDefaultParams(): { params: SessionParams | null; ready: boolean } {
  const [search] = useSearchParams();
  const from = search.get('from');
  const named = useProcessingStatusQuery(from ? { session: from } : skipToken);
  const latest = usePower7SessionsQuery({ page: 1, pageSize: 1 }, { skip: Boolean(from) });
  if (from) return { params: named.data?.params ?? null, ready: !named.isLoading };
  const last: Power7Session | undefined = latest.data?.items[0];
  return { params: last?.params ?? null, ready: !latest.isLoading };
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
  const headersFor = usePower7Headers();
  const defaults = useDefaultParams();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<FilePreview | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [upload, setUpload] = useState<AbortController | null>(null);
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

  useEffect(() => {
    if (defaults.params && !isDirty) reset(uploadFormFromParams(defaults.params));
    // only when the defaults arrive
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [defaults.params, reset]);

  // leaving the page stops the upload under way
  useEffect(() => () => upload?.abort(), [upload]);

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
    if (fileError) return;
    const values = getValues();
    const controller = new AbortController();
    setUpload(controller);
    const send = async (forceRefresh: boolean) => {
      const headers = await headersFor(forceRefresh);
      if (!headers) return null;
      const form = new FormData();
      for (const [name, value] of Object.entries(uploadFields(values))) form.append(name, value);
      form.append('customer_file', file, file.name);
      setProgress({ loaded: 0, total: file.size, bytesPerSecond: 0, secondsLeft: null });
      return sendUpload({
        url: power7Url('/api/upload/'),
        form,
        headers,
        onProgress: setProgress,
        signal: controller.signal,
      });
    };
    try {
      let answer = await send(false);
      if (answer?.status === 401) answer = await send(true);
      if (!answer) return;
      const { envelope, status } = answer;
      if (status === 202 && envelope.success) {
        dispatch(power7Endpoints.util.invalidateTags(['Power7Process']));
        const session = (envelope.data as Power7Session)._id;
        void navigate(`/app/power7/process?session=${encodeURIComponent(session)}`);
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
      else setFormError('Cannot reach the Power 7 service. Check your connection and try again.');
    } finally {
      setUpload(null);
      setProgress(null);
    }
  });

  const uploading = progress !== null;
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageTitle title="Power 7 · Parameters" />
      <StepHeader
        title="New analysis"
        description="Choose the customer file, the budget and the payout of each match type. Every possible draw of the pool is then analysed."
      />
      <form noValidate onSubmit={onSubmit} className="grid gap-6" aria-label="Analysis parameters">
        {formError ? <FormAlert>{formError}</FormAlert> : null}
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
              error={fileError}
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

        <Card>
          <CardHeader>
            <CardTitle>Budget</CardTitle>
            <CardDescription>
              A draw qualifies when the total payout to its winners is within the budget.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">Budget type</legend>
              <div className="flex flex-wrap gap-4">
                {(['fixed', 'range'] as const).map((type) => (
                  <label key={type} className="flex items-center gap-2 text-sm">
                    <input
                      type="radio"
                      value={type}
                      className="accent-primary size-4"
                      {...register('budget_type')}
                    />
                    {type === 'fixed' ? 'Fixed: at most an amount' : 'Range: between two amounts'}
                  </label>
                ))}
              </div>
            </fieldset>
            {budgetType === 'fixed' ? (
              <FormField
                id="budget"
                label="Budget"
                inputMode="decimal"
                className="max-w-xs"
                error={errors.budget?.message}
                {...register('budget')}
              />
            ) : (
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField
                  id="budget_min"
                  label="Minimum budget"
                  inputMode="decimal"
                  error={errors.budget_min?.message}
                  {...register('budget_min')}
                />
                <FormField
                  id="budget_max"
                  label="Maximum budget"
                  inputMode="decimal"
                  error={errors.budget_max?.message}
                  {...register('budget_max')}
                />
              </div>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Payouts and pool</CardTitle>
            <CardDescription>
              The prize of one winning ticket per number of matches (0 or more, at least one above
              0), and how many numbers a draw is picked from.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
              {PAYOUT_FIELDS.map((field, i) => (
                <FormField
                  key={field}
                  id={field}
                  label={`${i + 3} matches`}
                  inputMode="decimal"
                  error={errors[field]?.message}
                  {...register(field)}
                />
              ))}
            </div>
            <FormField
              id="pool_size"
              label={`Pool size (${MIN_POOL}–${MAX_POOL})`}
              inputMode="numeric"
              className="max-w-32"
              error={errors.pool_size?.message}
              {...register('pool_size')}
            />
            <CurrencyField error={errors.currency?.message} {...register('currency')} />
          </CardContent>
        </Card>

        {uploading ? (
          <UploadProgressPanel progress={progress} onCancel={() => upload?.abort()} />
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
      <div className="overflow-x-auto rounded-md border">
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
      </div>
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
  return (
    <Card data-testid="power7-upload-progress">
      <CardContent className="grid gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
          <span className="font-medium">Uploading… {percent} %</span>
          <span className="text-muted-foreground tabular-nums">
            {formatBytes(progress.loaded)} of {formatBytes(progress.total)}
            {progress.bytesPerSecond > 0 ? ` · ${formatBytes(progress.bytesPerSecond)}/s` : ''}
            {progress.secondsLeft !== null ? ` · ${formatSeconds(progress.secondsLeft)} left` : ''}
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
