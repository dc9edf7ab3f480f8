import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import {
  DEFAULT_POOL,
  uploadFormSchema,
  type SessionParams,
  type UploadFormInput,
} from '@pa/contracts/power7';

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

/**
 * The analysis parameters' form (new analysis and rerun): the contracts' schema validates it, it
 * starts empty, and `budgetType` follows the chosen kind of budget.
 */
export function useParamsForm() {
  const form = useForm<UploadFormInput, unknown, SessionParams>({
    resolver: zodResolver(uploadFormSchema),
    defaultValues: EMPTY_FORM,
  });
  const budgetType = useWatch({ control: form.control, name: 'budget_type' });
  return { ...form, budgetType };
}

/** Puts the service's message on the field it names; false when the form has no such field. */
export function placeFieldError(
  form: Pick<ReturnType<typeof useParamsForm>, 'setError'>,
  field: string | undefined,
  message: string,
): boolean {
  if (!field || !(field in EMPTY_FORM)) return false;
  form.setError(field as keyof UploadFormInput, { message });
  return true;
}
