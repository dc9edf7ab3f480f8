import type { ReactNode } from 'react';
import { PageTitle } from '@/components/page-title';
import { cn } from '@/lib/utils';

/** A page that stands for one that cannot be shown (404, 500): its status, what happened, a way on. */
export function ErrorPage({
  status,
  title,
  children,
  action,
  className,
  statusClassName,
}: {
  status: number;
  title: string;
  children: ReactNode;
  action: ReactNode;
  className?: string;
  statusClassName?: string;
}) {
  return (
    <section
      className={cn(
        'mx-auto flex max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center',
        className,
      )}
    >
      <PageTitle title={title} />
      <p className={cn('text-6xl font-bold', statusClassName)}>{status}</p>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-muted-foreground">{children}</p>
      {action}
    </section>
  );
}
