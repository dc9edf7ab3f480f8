import type * as React from 'react';
import { useRef, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage, fieldErrors } from '@/lib/api/api-error';
import { changedFields } from '@/lib/record-diff';

interface Versioned {
  _id: string;
  version: number;
}

export interface StaleConflict<R> {
  /** The record as the server holds it now. */
  fresh: R;
  /** What this person changed (relative to the version they opened). */
  mine: Record<string, unknown>;
}

/**
 * Create and edit of one record with the server's rules: the PATCH carries only what changed and the
 * version it was based on; server field errors land under their fields; a 409 whose record moved on
 * becomes a stale-edit conflict (reload theirs, or overwrite deliberately); other refusals are said.
 */
export function useRecordEditor<R extends Versioned, V extends FieldValues>({
  record,
  form,
  toValues,
  create,
  update,
  fetchFresh,
  noun,
  nameOf,
  viewPath,
  conflictField,
}: {
  record?: R;
  form: UseFormReturn<V, unknown, V>;
  toValues: (record: R) => V;
  create?: (values: V) => Promise<R>;
  update?: (id: string, body: Record<string, unknown> & { version: number }) => Promise<R>;
  fetchFresh?: (id: string) => Promise<R>;
  noun: string;
  nameOf: (record: R) => string;
  viewPath: (id: string) => string;
  /** The form field a 409 message is about ("user name taken" → userName). */
  conflictField?: (message: string) => Path<V> | undefined;
}) {
  const navigate = useNavigate();
  const [base, setBase] = useState(record);
  const [stale, setStale] = useState<StaleConflict<R> | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  /** Set just before leaving after a save, so the leave guard lets the navigation through. */
  const leaving = useRef(false);

  const done = (saved: R, verb: string) => {
    toast.success(`${noun[0]!.toUpperCase()}${noun.slice(1)} “${nameOf(saved)}” ${verb}.`);
    leaving.current = true;
    void navigate(viewPath(saved._id));
  };

  const showError = async (error: unknown, mine: Record<string, unknown>, version?: number) => {
    const status = (error as { status?: unknown }).status;
    if (status === 409 && base && fetchFresh) {
      const fresh = await fetchFresh(base._id).catch(() => null);
      if (fresh && fresh.version !== version) {
        setStale({ fresh, mine });
        return;
      }
    }
    const message = errorMessage(error);
    const byField = fieldErrors(error);
    let placed = false;
    for (const [field, text] of Object.entries(byField)) {
      if (field in form.getValues()) {
        form.setError(field as Path<V>, { type: 'server', message: text });
        placed = true;
      }
    }
    const field = status === 409 ? conflictField?.(message) : undefined;
    if (field) {
      form.setError(field, { type: 'server', message });
      placed = true;
    }
    setFormError(placed ? null : message);
  };

  const save = async (mine: Record<string, unknown>, on: R) => {
    try {
      const saved = await update!(on._id, { ...mine, version: on.version });
      done(saved, 'saved');
    } catch (error) {
      await showError(error, mine, on.version);
    }
  };

  const onValid = async (values: V) => {
    setFormError(null);
    if (!base) {
      try {
        done(await create!(values), 'created');
      } catch (error) {
        await showError(error, values);
      }
      return;
    }
    const mine = changedFields(values, toValues(base));
    if (Object.keys(mine).length === 0) {
      toast.info('Nothing changed.');
      leaving.current = true;
      void navigate(viewPath(base._id));
      return;
    }
    await save(mine, base);
  };
  // handleSubmit is called per event, so the ref is only touched outside render.
  const submit = (event?: React.BaseSyntheticEvent) => form.handleSubmit(onValid)(event);

  return {
    base,
    submit,
    formError,
    stale,
    leaving,
    /** Drop this person's changes and show the record as it is now. */
    reloadTheirs: () => {
      if (!stale) return;
      setBase(stale.fresh);
      form.reset(toValues(stale.fresh));
      setStale(null);
      toast.info(`Showing the ${noun} as it is now.`);
    },
    /** Save this person's changes over the newer version, knowingly. */
    overwrite: async () => {
      if (!stale) return;
      const { fresh, mine } = stale;
      setBase(fresh);
      setStale(null);
      await save(mine, fresh);
    },
    cancelStale: () => setStale(null),
  };
}
