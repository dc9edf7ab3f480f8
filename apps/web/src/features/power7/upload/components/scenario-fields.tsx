import type * as React from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { MAX_POOL, MIN_POOL, PAYOUT_FIELDS, type UploadFormInput } from '@pa/contracts/power7';
import { FormField } from '@/components/ui/form-field';

/** Codes offered first; any ISO 4217 code is accepted (`contracts` checks it). */
const COMMON_CURRENCIES = [
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'JPY',
  'CAD',
  'AUD',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
];

/** The optional currency of a session: an ISO 4217 code, suggested from a short list. */
export function CurrencyField({
  error,
  ...props
}: Omit<React.ComponentProps<typeof FormField>, 'id' | 'label'>) {
  return (
    <>
      <FormField
        id="currency"
        label="Currency (optional, ISO code)"
        className="max-w-32 uppercase"
        list="power7-currencies"
        autoComplete="off"
        maxLength={3}
        error={error}
        {...props}
      />
      <datalist id="power7-currencies">
        {COMMON_CURRENCIES.map((code) => (
          <option key={code} value={code} />
        ))}
      </datalist>
    </>
  );
}

interface FieldsProps {
  register: UseFormRegister<UploadFormInput>;
  errors: FieldErrors<UploadFormInput>;
}

/** The budget type (fixed or range) and the amount fields of the chosen type. */
export function BudgetFields({
  register,
  errors,
  budgetType,
}: FieldsProps & { budgetType: UploadFormInput['budget_type'] }) {
  return (
    <>
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
    </>
  );
}

/** The payout of one winning ticket per match type, 3 to 7. */
export function PayoutInputs({ register, errors }: FieldsProps) {
  return (
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
  );
}

/** The pool size a draw is picked from. */
export function PoolField({ register, errors }: FieldsProps) {
  return (
    <FormField
      id="pool_size"
      label={`Pool size (${MIN_POOL}–${MAX_POOL})`}
      inputMode="numeric"
      className="max-w-32"
      error={errors.pool_size?.message}
      {...register('pool_size')}
    />
  );
}

/**
 * The analysis parameters without the file: budget (fixed or range), the payout of each match type,
 * pool and currency, with each field's error. Used by the rerun form; the upload form lays the same
 * parts out in cards.
 */
export function ScenarioFields({
  register,
  errors,
  budgetType,
}: FieldsProps & { budgetType: UploadFormInput['budget_type'] }) {
  return (
    <div className="grid gap-6">
      <BudgetFields register={register} errors={errors} budgetType={budgetType} />
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Payout per winning ticket</legend>
        <PayoutInputs register={register} errors={errors} />
      </fieldset>
      <div className="flex flex-wrap gap-4">
        <PoolField register={register} errors={errors} />
        <CurrencyField error={errors.currency?.message} {...register('currency')} />
      </div>
    </div>
  );
}
