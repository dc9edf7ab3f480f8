import type * as React from 'react';
import { cn } from '@/lib/utils';

/** A placeholder while content loads; with an `aria-label` it is announced as a status (a plain div may not carry a label: axe aria-prohibited-attr). */
function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      role={props['aria-label'] ? 'status' : undefined}
      className={cn('animate-pulse rounded-md bg-accent', className)}
      {...props}
    />
  );
}

export { Skeleton };
