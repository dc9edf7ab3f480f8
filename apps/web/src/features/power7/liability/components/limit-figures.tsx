import type * as React from 'react';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { LoadError } from '../../components/common';
import { formatCount, formatMoney, formatPercent } from '../../lib/format';
import { useLimitAnswer, type LimitProgress } from '../hooks/use-limit-answer';
import { headroomOf } from '../lib/limit-text';

/** What the liability sections are asked about: a session's tickets under a limit per draw. */
export interface LimitQuestion {
  session: string;
  limit: number;
  currency?: string;
}

/** One figure: a label over its value, the way the session's other counts read. */
export function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="text-base font-semibold break-words tabular-nums sm:text-lg">{value}</dd>
      {note ? <dd className="text-muted-foreground text-xs break-all">{note}</dd> : null}
    </div>
  );
}

/** The figures of a run, four to a row on a wide screen (`className` for other counts). */
export function Figures({
  className,
  children,
}: {
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <dl className={cn('grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4 sm:gap-x-6', className)}>
      {children}
    </dl>
  );
}

/**
 * The share of a limit the worst draw uses, as a meter (its words are its value text, and are shown
 * under it as `children`); the live book's gauge and the limit run's head-room.
 */
export function LimitMeter({
  percent,
  words,
  className,
  barClassName = 'bg-primary',
  children,
}: {
  percent: number;
  words: string;
  /** The track's height. */
  className: string;
  barClassName?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <div
        role="meter"
        aria-label="Limit used by the worst draw"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={words}
        className={cn('bg-primary/20 w-full overflow-hidden rounded-full', className)}
      >
        <div className={cn('h-full rounded-full', barClassName)} style={{ width: `${percent}%` }} />
      </div>
      {children}
    </div>
  );
}

/**
 * A run that outlasts the service's wait: the tickets decided so far as a progress bar, with its
 * percentage in words.
 */
function LimitRunProgress({ progress, limit }: { progress: LimitProgress; limit: string }) {
  const percent = progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 0;
  const words = `${formatCount(progress.done)} of ${formatCount(progress.total)} tickets decided (${percent} %)`;
  return (
    <div className="grid gap-2" aria-busy="true" data-testid="power7-limit-progress">
      <p className="text-muted-foreground text-sm" aria-live="polite">
        Checking every draw against {limit}: {words}.
      </p>
      <Progress value={percent} aria-label="Limit check progress" aria-valuetext={words} />
    </div>
  );
}

/** What the limit does in sales order: accepted and refused, the worst draw before and after. */
export function LimitFigures({ session, limit, currency }: LimitQuestion) {
  const run = useLimitAnswer({ session, limit });
  const money = (v: number) => formatMoney(v, currency);
  if (run.error) {
    return (
      <LoadError error={run.error} onRetry={run.retry} title="The limit could not be checked" />
    );
  }
  const { answer } = run;
  if (!answer) {
    if (run.progress) return <LimitRunProgress progress={run.progress} limit={money(limit)} />;
    return (
      <div className="grid gap-2" aria-busy="true">
        <p className="text-muted-foreground text-sm" aria-live="polite">
          Checking every draw against {money(limit)}…
        </p>
        <Skeleton className="h-24" aria-label="Checking the limit" />
      </div>
    );
  }
  const room = headroomOf(answer.limit, answer.worstAfter.totalPayout);
  const roomWords = `Head-room ${money(room.amount)}: the worst draw left uses ${formatPercent(room.used)} of the limit.`;
  const summary =
    answer.refused === 0
      ? `Every ticket fits: the worst draw pays ${money(answer.worstBefore.totalPayout)}, within ${money(answer.limit)}.`
      : `${formatCount(answer.refused)} of ${formatCount(answer.tickets)} tickets are refused in sales order to keep every draw within ${money(answer.limit)}.`;
  return (
    <section
      className="grid gap-4"
      aria-label="What the limit refuses"
      data-testid="power7-limit-run"
    >
      <p className="text-sm" aria-live="polite">
        {summary}
      </p>
      <Figures>
        <Figure label="Accepted" value={formatCount(answer.accepted)} />
        <Figure label="Refused" value={formatCount(answer.refused)} />
        <Figure
          label="Worst draw before"
          value={money(answer.worstBefore.totalPayout)}
          note={answer.worstBefore.combo}
        />
        <Figure
          label="Worst draw after"
          value={money(answer.worstAfter.totalPayout)}
          note={answer.worstAfter.combo}
        />
      </Figures>
      <LimitMeter percent={Math.round(room.used * 1000) / 10} words={roomWords} className="h-3">
        <p className="text-muted-foreground text-sm">{roomWords}</p>
      </LimitMeter>
    </section>
  );
}
