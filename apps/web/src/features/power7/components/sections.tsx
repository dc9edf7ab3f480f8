import { useId } from 'react';
import type * as React from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { LoadError } from './common';

/**
 * A section of a Power 7 card named by its own heading (h2 on a page of its own, h3 inside a card).
 * The heading's id is `titleId` when a test or a form refers to it, else a generated one.
 */
export function TitledSection({
  title,
  titleId,
  level = 3,
  titleClassName = 'text-base font-semibold',
  className = 'grid gap-3',
  testId,
  children,
}: {
  title: React.ReactNode;
  titleId?: string;
  level?: 2 | 3;
  titleClassName?: string;
  className?: string;
  testId?: string;
  children: React.ReactNode;
}) {
  const generated = `${useId()}-title`;
  const id = titleId ?? generated;
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className={className} aria-labelledby={id} data-testid={testId}>
      <Heading id={id} className={titleClassName}>
        {title}
      </Heading>
      {children}
    </section>
  );
}

/**
 * What an answer read from the service shows: its failure with a retry, a skeleton while it is read,
 * then what `children` makes of it.
 */
export function Loaded<T>({
  query,
  current = false,
  fail,
  loading: [skeleton, loadingLabel],
  children,
}: {
  query: { data?: T; currentData?: T; error?: unknown; refetch: () => unknown };
  /** Only the answer to the question asked now (else the last one stays while the next is read). */
  current?: boolean;
  /** The failure's title. */
  fail: string;
  /** The skeleton's classes (its height) and its accessible name. */
  loading: [string, string];
  children: (data: T) => React.ReactNode;
}) {
  const data = current ? query.currentData : query.data;
  if (query.error) {
    return <LoadError error={query.error} onRetry={() => void query.refetch()} title={fail} />;
  }
  if (data === undefined) return <Skeleton className={skeleton} aria-label={loadingLabel} />;
  return children(data);
}

/** A row of radio buttons choosing one of a few kinds (of budget, of target, of ranking). */
export function KindChoice<K extends string>({
  name,
  legend,
  kinds,
  value,
  onChange,
  labelOf,
  className,
}: {
  /** The radio group's name (unique on the page). */
  name: string;
  /** Read by screen readers only: the choices say the rest. */
  legend: string;
  kinds: readonly K[];
  value: K;
  onChange: (kind: K) => void;
  labelOf: (kind: K) => React.ReactNode;
  className?: string;
}) {
  return (
    <fieldset className={cn('flex flex-wrap gap-4 text-sm', className)}>
      <legend className="sr-only">{legend}</legend>
      {kinds.map((k) => (
        <label key={k} className="flex items-center gap-2">
          <input
            type="radio"
            name={name}
            className="accent-primary size-4"
            checked={value === k}
            onChange={() => onChange(k)}
          />
          {labelOf(k)}
        </label>
      ))}
    </fieldset>
  );
}

/** Three grey rows while a list is read; `status` makes them a busy live region. */
export function SkeletonRows({ label, status = false }: { label: string; status?: boolean }) {
  return (
    <div
      className="grid gap-2"
      role={status ? 'status' : undefined}
      aria-label={label}
      aria-busy={status ? 'true' : undefined}
    >
      <Skeleton className="h-8" />
      <Skeleton className="h-8" />
      <Skeleton className="h-8" />
    </div>
  );
}

/** An empty list: what is missing, how to make one, and the way there. */
export function EmptyList({
  testId,
  title,
  children,
  action,
}: {
  testId: string;
  title: string;
  children: React.ReactNode;
  action: React.ReactNode;
}) {
  return (
    <div className="grid justify-items-start gap-3 py-4" data-testid={testId}>
      <p className="font-medium">{title}</p>
      <p className="text-muted-foreground text-sm">{children}</p>
      {action}
    </div>
  );
}
