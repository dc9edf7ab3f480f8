import { RotateCw } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api/api-error';

/** A list query (RTK Query's result) as far as a form's choices need it. */
export interface ChoiceList {
  isLoading: boolean;
  error?: unknown;
  refetch: () => unknown;
}

/**
 * Holds a form back until the lists it offers to choose from (roles, permissions) have answered, so
 * it appears whole: no "no roles yet" while they load, and no picker growing under the pointer as
 * someone reaches for Save or Cancel. A list that failed says so, with Retry, instead of loading for
 * ever. A skipped list (one the user may not read) counts as answered.
 */
export function ChoicesLoaded({
  lists,
  what,
  children,
}: {
  lists: readonly ChoiceList[];
  /** What the lists are, for the loading label and the error: "the permissions". */
  what: string;
  children: React.ReactNode;
}) {
  const failed = lists.find((list) => list.error !== undefined && !list.isLoading);
  if (failed)
    return (
      <div role="alert" className="grid justify-items-start gap-3">
        <p className="text-sm text-destructive">
          Could not load {what}: {errorMessage(failed.error)}
        </p>
        <Button type="button" variant="outline" onClick={() => void failed.refetch()}>
          <RotateCw aria-hidden="true" /> Retry
        </Button>
      </div>
    );
  if (lists.some((list) => list.isLoading))
    return (
      <div role="status" className="grid gap-4" aria-busy="true" aria-label={`Loading ${what}`}>
        <Skeleton className="h-9 w-full max-w-md" />
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  return <>{children}</>;
}

/** In place of a picker the user may not read: what it would need, and that nothing changes. */
export function NeedToChoose({
  code,
  what,
  current,
}: {
  code: string;
  what: string;
  /** The record's current choices, when the record names them. */
  current?: readonly { _id: string; name: string }[] | undefined;
}) {
  return (
    <p className="text-sm text-muted-foreground">
      Choosing {what} needs the {code} permission; they stay as they are.
      {current ? ` Now: ${current.map((r) => r.name).join(', ') || 'none'}.` : ''}
    </p>
  );
}
