import { Filter, RotateCcw } from 'lucide-react';
import { Fragment, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  MATCH_TYPES,
  type DrawRow,
  type FilterAnswerView,
  type SessionParams,
} from '@pa/contracts/power7';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { useFilterDrawsQuery } from '../../api/power7-endpoints';
import { usePower7Access } from '../../hooks/use-power7-access';
import { formatCount } from '../../lib/format';
import { moneyOf } from '../../lib/money';
import { budgetBandOf, nothingQualifiesReason } from '../../lib/insight';
import {
  DRAWS_PAGE_SIZE,
  drawsViewFromSearch,
  drawsViewParams,
  emptyDrawsView,
  filterBodyOf,
  writeDrawsView,
  type DrawsView,
  type Range,
} from '../lib/url-state';
import { LoadError, NumberBalls } from '../../components/common';
import { ExportDraws } from './export-draws';

export const SORT_OPTIONS: { value: DrawsView['sort']; label: string }[] = [
  { value: 'totalPayout:desc', label: 'Total payout, highest first' },
  { value: 'totalPayout:asc', label: 'Total payout, lowest first' },
  { value: 'combo:asc', label: 'Numbers, ascending' },
  ...[7, 6, 5, 4, 3].map((m) => ({
    value: `winners${m}:desc` as DrawsView['sort'],
    label: `Winners with ${m} matches, most first`,
  })),
];

/** The budget a draw's total is measured against: the fixed budget or the range's maximum. */
export const budgetCeiling = (params: SessionParams) =>
  params.budget_type === 'fixed' ? (params.budget ?? 0) : (params.budget_max ?? 0);

/** Where a draw opens: the results step with the list's filters, so previous / next follow them. */
export function resultsLink(
  session: string,
  draw: DrawRow,
  position: number,
  search: URLSearchParams,
) {
  const params = drawsViewParams(search);
  params.set('session', session);
  params.set('combo', draw.combo);
  const top = [...MATCH_TYPES].reverse().find((m) => draw.winners[m] > 0) ?? 3;
  params.set('match', String(top));
  params.set('pos', String(position));
  return `/app/power7/results?${params.toString()}`;
}

export function DrawsExplorer({ session, params }: { session: string; params: SessionParams }) {
  const [search, setSearch] = useSearchParams();
  const { canDownload } = usePower7Access();
  const view = drawsViewFromSearch(search);
  const query = useFilterDrawsQuery(filterBodyOf(session, view));
  const apply = (next: DrawsView) => setSearch(writeDrawsView(search, next));
  const ceiling = budgetCeiling(params);
  const money = moneyOf(params);
  const data = query.data;
  const totalPages = data?.totalPages ?? 0;
  const titleRef = useRef<HTMLHeadingElement>(null);
  const markApplied = useFocusAfterApply(search, titleRef);

  return (
    <Card data-testid="power7-draws">
      <CardHeader>
        <CardTitle ref={titleRef} tabIndex={-1} className="outline-none">
          Draws within budget
        </CardTitle>
        <CardDescription aria-live="polite" data-testid="power7-draws-summary">
          {data
            ? `${formatCount(data.qualified)} draws stay within the budget; ${formatCount(data.total)} match the filters.`
            : 'The draws whose total payout stays within the budget.'}{' '}
          {canDownload
            ? 'Choose a draw to see its winners.'
            : 'Seeing the winners of a draw needs the power7.download permission.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        <DrawFilterForm
          key={search.toString()}
          view={view}
          pool={params.pool_size}
          onApply={(next) => {
            markApplied();
            apply({ ...next, page: 1 });
          }}
        />
        <ExportDraws body={filterBodyOf(session, view)} matching={data?.total} />
        {query.error ? (
          <LoadError
            error={query.error}
            onRetry={() => void query.refetch()}
            title="The draws could not be listed"
          />
        ) : !data ? (
          <Skeleton className="h-64" aria-label="Loading draws" />
        ) : data.qualified === 0 ? (
          <p
            className="text-muted-foreground py-6 text-center text-sm"
            data-testid="power7-nothing-qualifies-draws"
          >
            No draw stays within the budget.{' '}
            {nothingQualifiesReason(budgetBandOf(params), data.stats.min, money)}
          </p>
        ) : data.items.length === 0 ? (
          <p
            className="text-muted-foreground py-6 text-center text-sm"
            data-testid="power7-no-draws"
          >
            No draw matches these filters.
          </p>
        ) : (
          <>
            <DrawsTable
              answer={data}
              fetching={query.isFetching}
              {...{ session, search, ceiling, money, canDownload }}
            />
            <DataTablePagination
              page={data.page}
              pageSize={DRAWS_PAGE_SIZE}
              total={data.total}
              totalPages={totalPages}
              noun={['draw', 'draws']}
              selected={0}
              onPage={(page) => apply({ ...view, page })}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** One page of draws: numbers (a link to the winners when allowed), winners per tier, total, budget left. */
function DrawsTable({
  answer,
  session,
  search,
  ceiling,
  money,
  canDownload,
  fetching,
}: {
  answer: FilterAnswerView;
  session: string;
  search: URLSearchParams;
  ceiling: number;
  money: (value: number) => string;
  canDownload: boolean;
  fetching: boolean;
}) {
  return (
    <Table
      aria-label="Draws within budget"
      scrollLabel="Draws within budget"
      className={cn(fetching && 'opacity-70')}
    >
      <TableHeader>
        <TableRow>
          <TableHead>Draw</TableHead>
          {[3, 4, 5, 6, 7].map((m) => (
            <TableHead key={m} className="text-right">
              <abbr title={`Winners with ${m} matches`} className="no-underline">
                {m} match
              </abbr>
            </TableHead>
          ))}
          <TableHead className="text-right">Total payout</TableHead>
          <TableHead className="text-right">Budget left</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {answer.items.map((draw, i) => (
          <TableRow key={draw.combo} data-testid="power7-draw-row">
            <TableCell>
              {canDownload ? (
                <Link
                  to={resultsLink(session, draw, (answer.page - 1) * DRAWS_PAGE_SIZE + i, search)}
                  className="rounded-full outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
                  aria-label={`Winners of draw ${draw.numbers.join(', ')}`}
                >
                  <NumberBalls numbers={draw.numbers} />
                </Link>
              ) : (
                // Not a link: the winners need power7.download (the card's description says so).
                <span
                  data-testid="power7-draw-locked"
                  title="Seeing the winners needs the power7.download permission"
                >
                  <NumberBalls numbers={draw.numbers} label={`Draw ${draw.numbers.join(', ')}`} />
                </span>
              )}
            </TableCell>
            {([3, 4, 5, 6, 7] as const).map((m) => (
              <TableCell key={m} className="text-right tabular-nums">
                {formatCount(draw.winners[m])}
              </TableCell>
            ))}
            <TableCell className="text-right font-medium tabular-nums">
              {money(draw.totalPayout)}
            </TableCell>
            <TableCell className="text-muted-foreground text-right tabular-nums">
              {money(ceiling - draw.totalPayout)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * After "Apply filters" the form is rebuilt from the URL, so the button that had focus is gone and
 * focus would fall to the page body: move it to the list's title instead, whose description (a live
 * region) then reads the new counts.
 */
function useFocusAfterApply(
  search: URLSearchParams,
  title: React.RefObject<HTMLHeadingElement | null>,
) {
  const pending = useRef(false);
  useEffect(() => {
    if (!pending.current) return;
    pending.current = false;
    title.current?.focus();
  }, [search, title]);
  return () => {
    pending.current = true;
  };
}

/** The filters whose minimum is above their maximum, by name, so the form refuses them itself. */
export function invertedRanges(view: DrawsView): string[] {
  const named: [string, Range | undefined][] = [
    ...([3, 4, 5, 6, 7] as const).map((m): [string, Range | undefined] => [
      `${m} matches`,
      view.winners[m],
    ]),
    ['Total payout', view.totalPayout],
  ];
  return named
    .filter(([, r]) => r?.min !== undefined && r.max !== undefined && r.min > r.max)
    .map(([name]) => name);
}

type NumberState = 'any' | 'must' | 'mustNot';
const NEXT_STATE: Record<NumberState, NumberState> = {
  any: 'must',
  must: 'mustNot',
  mustNot: 'any',
};

const rangeText = (value: number | undefined) => (value === undefined ? '' : String(value));
const readNumber = (text: string): number | undefined => {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
};

function DrawFilterForm({
  view,
  pool,
  onApply,
}: {
  view: DrawsView;
  pool: number;
  onApply: (view: DrawsView) => void;
}) {
  const [draft, setDraft] = useState<DrawsView>(view);
  const [invalid, setInvalid] = useState<string[]>([]);
  const setRange = (key: 'total' | 3 | 4 | 5 | 6 | 7, side: keyof Range, text: string) => {
    setDraft((d) => {
      if (key === 'total')
        return { ...d, totalPayout: { ...d.totalPayout, [side]: readNumber(text) } };
      return {
        ...d,
        winners: { ...d.winners, [key]: { ...d.winners[key], [side]: readNumber(text) } },
      };
    });
  };
  const stateOf = (n: number): NumberState =>
    draft.mustInclude.includes(n) ? 'must' : draft.mustExclude.includes(n) ? 'mustNot' : 'any';
  const cycle = (n: number) =>
    setDraft((d) => {
      const next = NEXT_STATE[stateOf(n)];
      const inc = d.mustInclude.filter((x) => x !== n);
      const exc = d.mustExclude.filter((x) => x !== n);
      if (next === 'must') inc.push(n);
      if (next === 'mustNot') exc.push(n);
      return {
        ...d,
        mustInclude: inc.sort((a, b) => a - b),
        mustExclude: exc.sort((a, b) => a - b),
      };
    });

  return (
    <form
      aria-label="Filter draws"
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const bad = invertedRanges(draft);
        setInvalid(bad);
        if (bad.length === 0) onApply(draft);
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Winners per match type (min – max)</legend>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {([3, 4, 5, 6, 7] as const).map((m) => (
            <RangeInputs
              key={m}
              id={`w${m}`}
              label={`${m} matches`}
              range={draft.winners[m] ?? {}}
              onChange={(side, text) => setRange(m, side, text)}
            />
          ))}
          <RangeInputs
            id="total"
            label="Total payout"
            range={draft.totalPayout}
            onChange={(side, text) => setRange('total', side, text)}
          />
        </div>
        {invalid.length ? (
          <p className="text-destructive text-sm" role="alert" data-testid="power7-filter-error">
            The minimum must not be greater than the maximum: {invalid.join(', ')}.
          </p>
        ) : null}
      </fieldset>
      <NumberGrid pool={pool} stateOf={stateOf} onCycle={cycle} />
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-2">
          <Label htmlFor="draw-sort">Sort</Label>
          <select
            id="draw-sort"
            value={draft.sort}
            onChange={(event) =>
              setDraft((d) => ({ ...d, sort: event.target.value as DrawsView['sort'] }))
            }
            className="border-input bg-background h-9 rounded-md border px-3 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
          >
            {SORT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit">
          <Filter className="size-4" aria-hidden="true" /> Apply filters
        </Button>
        <Button type="button" variant="outline" onClick={() => onApply(emptyDrawsView())}>
          <RotateCcw className="size-4" aria-hidden="true" /> Reset
        </Button>
      </div>
    </form>
  );
}

/** The pool's numbers, each cycling between any, must be drawn and must not be drawn. */
function NumberGrid({
  pool,
  stateOf,
  onCycle,
}: {
  pool: number;
  stateOf: (n: number) => NumberState;
  onCycle: (n: number) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">
        Numbers{' '}
        <span className="text-muted-foreground font-normal">
          (click: must be drawn, again: must not be drawn, again: any)
        </span>
      </legend>
      <div className="flex flex-wrap gap-1" data-testid="power7-number-grid">
        {Array.from({ length: pool }, (_, i) => i + 1).map((n) => {
          const state = stateOf(n);
          return (
            <button
              key={n}
              type="button"
              onClick={() => onCycle(n)}
              aria-label={`${n}: ${state === 'must' ? 'must be drawn' : state === 'mustNot' ? 'must not be drawn' : 'any'}`}
              className={cn(
                'inline-flex size-8 items-center justify-center rounded-full border text-xs font-semibold tabular-nums outline-none focus-visible:ring-[3px] focus-visible:ring-ring',
                state === 'must' && 'border-primary bg-primary text-primary-foreground',
                state === 'mustNot' && 'border-destructive text-destructive line-through',
              )}
            >
              {n}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

function RangeInputs({
  id,
  label,
  range,
  onChange,
}: {
  id: string;
  label: string;
  range: Range;
  onChange: (side: keyof Range, text: string) => void;
}) {
  return (
    <div className="grid gap-1">
      <span className="text-sm" id={`${id}-label`}>
        {label}
      </span>
      <div className="flex items-center gap-1" role="group" aria-labelledby={`${id}-label`}>
        {(['min', 'max'] as const).map((side) => (
          <Fragment key={side}>
            {side === 'max' ? <span aria-hidden="true">–</span> : null}
            <Input
              aria-label={`${label} ${side === 'min' ? 'at least' : 'at most'}`}
              placeholder={side}
              inputMode="decimal"
              defaultValue={rangeText(range[side])}
              onChange={(event) => onChange(side, event.target.value)}
            />
          </Fragment>
        ))}
      </div>
    </div>
  );
}
