import type * as React from 'react';
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { formatCount } from '@/lib/format';
import { PAGE_SIZES } from '@/lib/list-url';
import { OptionSelect } from './option-select';

const SIZE_OPTIONS = PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }));

/** The page numbers around the current one, with gaps: 1 … 4 5 6 … 12. */
export function pageWindow(current: number, total: number): (number | 'gap')[] {
  const pages = new Set([1, total, current - 1, current, current + 1]);
  const sorted = [...pages].filter((p) => p >= 1 && p <= total).sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  for (const page of sorted) {
    const last = out[out.length - 1];
    if (typeof last === 'number' && page - last > 1) out.push('gap');
    out.push(page);
  }
  return out;
}

/**
 * The pager of every server-side list — company administration and the Power 7 draws and winners:
 * where we are, rows per page, go to page, first/previous/numbers/next/last.
 */
export function DataTablePagination({
  page,
  pageSize,
  total,
  totalPages,
  noun,
  selected,
  onPage,
  onPageSize,
}: {
  page: number;
  pageSize: number;
  total: number | undefined;
  totalPages: number | undefined;
  /** Singular and plural ("user", "users"). */
  noun: [string, string];
  selected: number;
  onPage: (page: number) => void;
  /** Absent for lists of a fixed page size (the Power 7 draws and winners). */
  onPageSize?: (size: number) => void;
}) {
  const last = Math.max(totalPages ?? 1, 1);
  // Past the end (until the list moves to its last page) counts nothing rather than "9981–2 of 2".
  const from = total && page <= last ? (page - 1) * pageSize + 1 : 0;
  const to = total && page <= last ? Math.min(page * pageSize, total) : 0;
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col gap-3 px-1 text-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="text-muted-foreground" aria-live="polite">
        {total === undefined
          ? ' '
          : `${formatCount(from)}–${formatCount(to)} of ${formatCount(total)} ${total === 1 ? noun[0] : noun[1]}${selected ? ` · ${formatCount(selected)} selected` : ''}`}
      </p>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {onPageSize ? (
          <div className="flex items-center gap-2">
            <span id="rows-per-page" className="whitespace-nowrap">
              Rows per page
            </span>
            <OptionSelect
              value={String(pageSize)}
              onChange={(v) => onPageSize(Number(v))}
              options={SIZE_OPTIONS}
              trigger={{ size: 'sm', 'aria-labelledby': 'rows-per-page', className: 'w-18' }}
            />
          </div>
        ) : null}
        {last > 1 ? <JumpToPage last={last} onPage={onPage} /> : null}
        <div className="flex items-center gap-1">
          <StepButton label="First page" disabled={page <= 1} onClick={() => onPage(1)}>
            <ChevronsLeft aria-hidden="true" />
          </StepButton>
          <StepButton label="Previous page" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            <ChevronLeft aria-hidden="true" />
          </StepButton>
          {pageWindow(Math.min(page, last), last).map((item, i) =>
            item === 'gap' ? (
              <span key={`gap-${i}`} className="px-1 text-muted-foreground" aria-hidden="true">
                …
              </span>
            ) : (
              <Button
                key={item}
                variant={item === page ? 'default' : 'ghost'}
                size="icon"
                className="size-8"
                aria-label={`Page ${formatCount(item)}`}
                aria-current={item === page ? 'page' : undefined}
                onClick={() => onPage(item)}
              >
                {formatCount(item)}
              </Button>
            ),
          )}
          <StepButton label="Next page" disabled={page >= last} onClick={() => onPage(page + 1)}>
            <ChevronRight aria-hidden="true" />
          </StepButton>
          <StepButton label="Last page" disabled={page >= last} onClick={() => onPage(last)}>
            <ChevronsRight aria-hidden="true" />
          </StepButton>
        </div>
      </div>
    </nav>
  );
}

/** First, previous, next or last page: an icon button named for assistive technology. */
function StepButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <Button
      variant="outline"
      size="icon"
      className="size-8"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** "Go to page [ ] of N": typed page numbers beyond the ends go to the nearest end. */
function JumpToPage({ last, onPage }: { last: number; onPage: (page: number) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const page = Number.parseInt(text, 10);
        if (Number.isFinite(page)) onPage(Math.min(Math.max(page, 1), last));
        setText('');
      }}
    >
      <label htmlFor={id} className="whitespace-nowrap">
        Go to page
      </label>
      <Input
        id={id}
        inputMode="numeric"
        pattern="[0-9]*"
        value={text}
        onChange={(event) => setText(event.target.value.replace(/\D/g, '').slice(0, 7))}
        className="h-8 w-16"
        aria-describedby={`${id}-of`}
      />
      <span id={`${id}-of`} className="whitespace-nowrap text-muted-foreground">
        of {formatCount(last)}
      </span>
      <Button type="submit" variant="outline" size="sm" className="h-8">
        Go
      </Button>
    </form>
  );
}
