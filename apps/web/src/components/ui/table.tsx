import type * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A box that scrolls sideways when its content is wider than the screen. A keyboard user can only
 * scroll a region that takes focus (axe `scrollable-region-focusable`), so it is a named, focusable
 * region.
 */
function ScrollRegion({
  label,
  className,
  ...props
}: React.ComponentProps<'div'> & { label: string }) {
  return (
    <div
      role="region"
      aria-label={label}
      // focusable on purpose: the region scrolls, and only a focused region scrolls with the keys
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className={cn(
        'overflow-x-auto rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring',
        className,
      )}
      {...props}
    />
  );
}

/** `scrollLabel` makes the scroll container a ScrollRegion, for tables that get wide. */
function Table({
  className,
  scrollLabel,
  ...props
}: React.ComponentProps<'table'> & { scrollLabel?: string }) {
  const table = (
    <table
      data-slot="table"
      className={cn('w-full caption-bottom text-sm', className)}
      {...props}
    />
  );
  return scrollLabel ? (
    <ScrollRegion data-slot="table-container" label={scrollLabel} className="relative w-full">
      {table}
    </ScrollRegion>
  ) : (
    <div data-slot="table-container" className="relative w-full overflow-x-auto">
      {table}
    </div>
  );
}

function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />;
}

function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return (
    <tbody
      data-slot="table-body"
      className={cn('[&_tr:last-child]:border-0', className)}
      {...props}
    />
  );
}

function TableFooter({ className, ...props }: React.ComponentProps<'tfoot'>) {
  return (
    <tfoot
      data-slot="table-footer"
      className={cn('border-t bg-muted/50 font-medium [&>tr]:last:border-b-0', className)}
      {...props}
    />
  );
}

function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return (
    <tr
      data-slot="table-row"
      className={cn(
        'border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted',
        className,
      )}
      {...props}
    />
  );
}

function TableHead({ className, ...props }: React.ComponentProps<'th'>) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        'h-10 px-2 text-left align-middle font-medium whitespace-nowrap text-foreground [&:has([role=checkbox])]:pr-0 [&>[role=checkbox]]:translate-y-[2px]',
        className,
      )}
      {...props}
    />
  );
}

function TableCell({ className, ...props }: React.ComponentProps<'td'>) {
  return (
    <td
      data-slot="table-cell"
      className={cn(
        'p-2 align-middle whitespace-nowrap [&:has([role=checkbox])]:pr-0 [&>[role=checkbox]]:translate-y-[2px]',
        className,
      )}
      {...props}
    />
  );
}

function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
  return (
    <caption
      data-slot="table-caption"
      className={cn('mt-4 text-sm text-muted-foreground', className)}
      {...props}
    />
  );
}

export {
  ScrollRegion,
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
};
