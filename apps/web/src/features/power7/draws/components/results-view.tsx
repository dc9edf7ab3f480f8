import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import { MATCH_TYPES, type DrawRow, type SessionParams } from '@pa/contracts/power7';
import { DEFAULT_PAGE_SIZE } from '@/config/constants';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import {
  useFilterDrawsQuery,
  useProcessingStatusQuery,
  useWinnersQuery,
} from '../../api/power7-endpoints';
import { useDownload } from '../../hooks/use-download';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { formatCount } from '../../lib/format';
import { moneyOf } from '../../lib/money';
import {
  drawsViewFromSearch,
  drawsViewParams,
  filterBodyOf,
  type DrawsView,
} from '../lib/url-state';
import {
  NoPermission,
  NoDrawChosen,
  NumberBalls,
  SessionGone,
  StepHeader,
  httpStatusOf,
} from '../../components/common';
import { DownloadButtons } from '../../components/download-buttons';
import { resultsLink } from './draws-explorer';
import { WinnersCard } from './winners-card';

// The seed's page size (docs/product/web.md §9), like every other list.
const WINNERS_PAGE_SIZE = DEFAULT_PAGE_SIZE;
const TIERS = [...MATCH_TYPES].reverse();

/** The results step: one draw, its winners per match type, downloads, and the neighbouring draws. */
export function ResultsView() {
  const [search] = useSearchParams();
  const access = usePower7Access();
  const session = search.get('session');
  const combo = search.get('combo');
  const status = useProcessingStatusQuery(session && access.canRun ? { session } : skipToken);

  const backToList = () => {
    const params = drawsViewParams(search);
    if (session) params.set('session', session);
    return `/app/power7/process?${params.toString()}`;
  };
  const header = (
    <StepHeader
      title="Winners"
      description={status.data?.originalName ?? undefined}
      actions={
        <Button asChild variant="outline">
          <Link to={session ? backToList() : '/app/power7'}>Back to the draws</Link>
        </Button>
      }
    />
  );
  const wrap = (body: React.ReactNode) => (
    <div className="grid grid-cols-1 gap-6">
      <PageTitle title="Power 7 · Results" />
      {header}
      {body}
    </div>
  );
  if (!access.canDownload) {
    return wrap(
      <NoPermission permission={POWER7_PERMISSIONS.download} what="see or download winners" />,
    );
  }
  if (!session || !combo) {
    return wrap(<NoDrawChosen />);
  }
  if (httpStatusOf(status.error) === 404) {
    return wrap(<SessionGone />);
  }
  return wrap(<DrawResults session={session} combo={combo} params={status.data?.params} />);
}

function DrawResults({
  session,
  combo,
  params,
}: {
  session: string;
  combo: string;
  params: SessionParams | undefined;
}) {
  const [search, setSearch] = useSearchParams();
  const matchParam = Number(search.get('match'));
  const match = MATCH_TYPES.includes(matchParam as 3) ? matchParam : 7;
  const page = Math.max(1, Number(search.get('wpage')) || 1);
  const pos = Number(search.get('pos'));
  const hasPos = search.has('pos') && Number.isInteger(pos) && pos >= 0;
  const view = drawsViewFromSearch(search);
  const neighbours = useNeighbours(session, view, hasPos ? pos : null);
  const draw: DrawRow | undefined =
    neighbours.current?.combo === combo ? neighbours.current : undefined;
  const winners = useWinnersQuery({
    session,
    combo,
    matchType: match,
    page,
    pageSize: WINNERS_PAGE_SIZE,
  });
  // held here, not in the tab: a download keeps its progress while another match type is shown
  const downloads = useDownload();
  const numbers = combo.split('-').map(Number);
  const tabsRef = useActiveTabInView(match);

  const setParam = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setSearch(next);
  };

  return (
    <>
      <DrawCard
        numbers={numbers}
        total={draw ? moneyOf(params)(draw.totalPayout) : null}
        previous={
          <NeighbourButton
            direction="previous"
            target={neighbours.previous}
            to={(d) => resultsLink(session, d, pos - 1, search)}
          />
        }
        next={
          <NeighbourButton
            direction="next"
            target={neighbours.next}
            to={(d) => resultsLink(session, d, pos + 1, search)}
          />
        }
      />

      <Tabs
        ref={tabsRef}
        className="min-w-0"
        value={String(match)}
        onValueChange={(value) => setParam({ match: value, wpage: null })}
      >
        <TabsList
          className="h-auto w-full justify-start overflow-x-auto sm:w-fit"
          aria-label="Match type"
        >
          {TIERS.map((m) => (
            <TabsTrigger key={m} value={String(m)} className="flex-none flex-col gap-0 px-3 py-1.5">
              <span>{m} matches</span>
              {draw && params ? (
                <span className="text-muted-foreground text-xs tabular-nums">
                  {formatCount(draw.winners[m])} ·{' '}
                  {moneyOf(params)(draw.winners[m] * params.payouts[m])}
                </span>
              ) : null}
            </TabsTrigger>
          ))}
        </TabsList>
        {TIERS.map((m) => (
          <TabsContent key={m} value={String(m)}>
            {m === match ? (
              <WinnersCard
                winners={winners}
                match={match}
                money={moneyOf(params)}
                onPage={(p) => setParam({ wpage: p === 1 ? null : String(p) })}
                actions={<WinnersDownloads {...{ session, combo, match, downloads }} />}
              />
            ) : null}
          </TabsContent>
        ))}
      </Tabs>
    </>
  );
}

/**
 * A download's query: the session, and the format; a CSV starts with the session's parameters (`# `
 * lines), so the file alone says which run it came from (docs/reference/power7-api.md "Downloads").
 */
function downloadQuery(session: string, format: 'csv' | 'xlsx'): string {
  const query = new URLSearchParams({ session, format });
  if (format === 'csv') query.set('params', '1');
  return query.toString();
}

/** One row of the list's current filters and sort (0-based position), or nothing. */
function useDrawAt(session: string, view: DrawsView, position: number | null) {
  const body =
    position === null || position < 0 ? skipToken : filterBodyOf(session, view, position);
  // currentData: nothing while the position changes or is skipped (no stale neighbour)
  return useFilterDrawsQuery(body).currentData?.items[0];
}

/** The draw at `pos` of the list and the ones before and after it, for previous / next. */
function useNeighbours(session: string, view: DrawsView, pos: number | null) {
  return {
    previous: useDrawAt(session, view, pos === null ? null : pos - 1),
    current: useDrawAt(session, view, pos),
    next: useDrawAt(session, view, pos === null ? null : pos + 1),
  };
}

function NeighbourButton({
  direction,
  target,
  to,
}: {
  direction: 'previous' | 'next';
  target: DrawRow | undefined;
  to: (draw: DrawRow) => string;
}) {
  const label = direction === 'previous' ? 'Previous draw' : 'Next draw';
  const icon =
    direction === 'previous' ? (
      <ChevronLeft className="size-4" aria-hidden="true" />
    ) : (
      <ChevronRight className="size-4" aria-hidden="true" />
    );
  if (!target) {
    return (
      <Button variant="outline" disabled>
        {direction === 'previous' ? icon : null}
        {label}
        {direction === 'next' ? icon : null}
      </Button>
    );
  }
  return (
    <Button asChild variant="outline">
      <Link to={to(target)}>
        {direction === 'previous' ? icon : null}
        {label}
        {direction === 'next' ? icon : null}
      </Link>
    </Button>
  );
}

/** The chosen draw: its numbers, its total payout once its row is read, and the neighbours' buttons. */
function DrawCard({
  numbers,
  total,
  previous,
  next,
}: {
  numbers: number[];
  total: string | null;
  previous: React.ReactNode;
  next: React.ReactNode;
}) {
  return (
    <Card>
      <CardContent className="flex flex-wrap items-center justify-between gap-4">
        <div className="grid gap-2">
          <span className="text-muted-foreground text-sm">Draw</span>
          <NumberBalls numbers={numbers} label={`Draw ${numbers.join(', ')}`} />
        </div>
        {total !== null ? (
          <div className="grid gap-1 text-sm">
            <span className="text-muted-foreground">Total payout</span>
            <span className="text-lg font-semibold tabular-nums">{total}</span>
          </div>
        ) : null}
        <div className="flex gap-2">
          {previous}
          {next}
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * On a narrow screen the tab row scrolls sideways: keep the chosen match type in view (a draw often
 * opens on 3 matches, the last tab), also when the screen turns or the window narrows.
 */
function useActiveTabInView(match: number) {
  const tabsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const list = tabsRef.current?.querySelector<HTMLElement>('[role="tablist"]');
    if (!list) return;
    const reveal = () => {
      const active = list.querySelector<HTMLElement>('[data-state="active"]');
      if (!active || list.scrollWidth <= list.clientWidth) return;
      const [box, tab] = [list.getBoundingClientRect(), active.getBoundingClientRect()];
      list.scrollLeft += tab.left - box.left - (box.width - tab.width) / 2;
    };
    reveal();
    const observer = new ResizeObserver(reveal);
    observer.observe(list);
    return () => observer.disconnect();
  }, [match]);
  return tabsRef;
}

/** The draw's downloads: this match type's winners and all its winners, as CSV or XLSX. */
function WinnersDownloads({
  session,
  combo,
  match,
  downloads,
}: {
  session: string;
  combo: string;
  match: number;
  downloads: ReturnType<typeof useDownload>;
}) {
  const formats = ['csv', 'xlsx'] as const;
  const files = [
    ...formats.map((format) => ({
      key: `one-${format}`,
      url: `/api/download/${combo}/${match}/?${downloadQuery(session, format)}`,
      name: `power7-${combo}-match${match}.${format}`,
      label: `${match} matches (${format.toUpperCase()})`,
    })),
    ...formats.map((format) => ({
      key: `all-${format}`,
      url: `/api/download-all/${combo}/?${downloadQuery(session, format)}`,
      name: `power7-${combo}-all.${format}`,
      label: `All winners (${format.toUpperCase()})`,
    })),
  ];
  return (
    <DownloadButtons
      files={files}
      downloads={downloads}
      progressClassName="text-muted-foreground self-center text-sm"
    />
  );
}
