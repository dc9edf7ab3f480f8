import type * as React from 'react';
import { cn } from '@/lib/utils';

/** Initials in a circle (the account menu shows no picture). */
function Avatar({ className, ...props }: React.ComponentProps<'span'>) {
  return (
    <span
      data-slot="avatar"
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-xs font-semibold text-primary-foreground',
        className,
      )}
      {...props}
    />
  );
}

export { Avatar };
