import { FileQuestion, RotateCw } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api/api-error';
import { ForbiddenState } from '@/components/forbidden-state';

const statusOf = (error: unknown) => (error as { status?: unknown } | undefined)?.status;

/**
 * What a record page shows before its record: a skeleton, "not found" (404, also another company's
 * id), the 403 state, or an error with retry; `children` once the record is there.
 */
export function RecordState<T>({
  data,
  error,
  isLoading,
  refetch,
  noun,
  listPath,
  need,
  children,
}: {
  data?: T | undefined;
  error?: unknown;
  isLoading: boolean;
  refetch: () => unknown;
  noun: string;
  listPath: string;
  need: string;
  children: (record: T) => React.ReactNode;
}) {
  if (data) return <>{children(data)}</>;
  const status = statusOf(error);
  if (status === 403) return <ForbiddenState need={[need]} what={`this ${noun}`} />;
  if (status === 404 || status === 400)
    return (
      <section className="mx-auto grid max-w-lg justify-items-center gap-3 rounded-xl border p-8 text-center">
        <PageTitle title={`No such ${noun}`} />
        <FileQuestion aria-hidden="true" className="size-10 text-muted-foreground" />
        <h1 className="text-xl font-semibold">This {noun} does not exist</h1>
        <p className="text-sm text-muted-foreground">
          It may have been deleted, or the link is wrong.
        </p>
        <Button asChild variant="outline">
          <Link to={listPath}>Back to the list</Link>
        </Button>
      </section>
    );
  if (error && !isLoading)
    return (
      <div role="alert" className="grid max-w-lg gap-3 rounded-xl border p-6">
        <p className="text-destructive">
          Could not load this {noun}: {errorMessage(error)}
        </p>
        <div>
          <Button variant="outline" onClick={() => void refetch()}>
            <RotateCw aria-hidden="true" /> Retry
          </Button>
        </div>
      </div>
    );
  return (
    <div
      role="status"
      className="grid max-w-3xl gap-4"
      aria-busy="true"
      aria-label={`Loading the ${noun}`}
    >
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-40 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}
