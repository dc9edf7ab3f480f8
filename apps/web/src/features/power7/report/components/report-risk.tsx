import type { InsightAnswer, Power7Status } from '@pa/contracts/power7';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { errorMessage } from '@/lib/api/api-error';
import { useExposureQuery, useInsightQuery } from '../../api/power7-endpoints';
import { countsOf, formatCount, formatMoney, formatPercent } from '../../lib/format';
import { budgetBandOf } from '../../lib/insight';
import { currencyOf, moneyOf } from '../../lib/money';
import { ExposureRows } from '../../risk/components/exposure-rows';
import { LoadError } from '../../components/common';
import { shareOfDraws } from '../../components/insight-summary';

/** The report's chances of exceeding: 1 in 1,000, 1 in 10,000 and 1 in a million draws. */
export const REPORT_EXCEED_TARGETS = [0.001, 0.0001, 0.000001] as const;
/** Expected shortfall at 99 % and 99.9 %. */
export const REPORT_SHORTFALL_LEVELS = [0.99, 0.999] as const;
/** Rows of the printed exposure ranking. */
export const REPORT_EXPOSURE_TOP = 10;

/**
 * The limits for the report's chances of exceeding and the expected shortfalls, exact from
 * `POST /api/insight/` (`exceedTargets`, `shortfallLevels`).
 */
export function ReportLimits({ status }: { status: Power7Status }) {
  const query = useInsightQuery({
    session: status._id,
    exceedTargets: [...REPORT_EXCEED_TARGETS],
    shortfallLevels: [...REPORT_SHORTFALL_LEVELS],
  });
  if (query.error) {
    return (
      <LoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        title="The limits could not be loaded"
      />
    );
  }
  if (!query.data) return <Skeleton className="h-40" aria-label="Loading the limits" />;
  const answer = query.data;
  const money = moneyOf(status.params);
  return (
    <div className="grid gap-4">
      <LimitsTable answer={answer} money={money} />
      <dl className="grid gap-3 text-sm sm:grid-cols-2" data-testid="power7-report-shortfall">
        {answer.shortfall.map((s) => (
          <div key={s.level} className="grid gap-0.5">
            <dt className="text-muted-foreground">Expected shortfall at {levelText(s.level)}</dt>
            <dd>
              <span className="font-medium tabular-nums">{money(s.value)}</span>: the mean total of
              the {formatCount(s.draws)} most expensive {s.draws === 1 ? 'draw' : 'draws'}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** A level as people write it: 0.99 → "99 %", 0.999 → "99.9 %". */
const levelText = (level: number) => `${Number((level * 100).toPrecision(8))} %`;

/** "1 in 1,000": a chance of exceeding as the reader says it. */
const oneInWords = (p: number) => `1 in ${formatCount(Math.round(1 / p))}`;

function LimitsTable({ answer, money }: { answer: InsightAnswer; money: (v: number) => string }) {
  return (
    <Table
      aria-label="Budget for a chance of exceeding"
      scrollLabel="Budget for a chance of exceeding"
      data-testid="power7-report-limits"
    >
      <TableHeader>
        <TableRow>
          <TableHead>Chance a draw pays more, at most</TableHead>
          <TableHead className="text-right">Budget needed</TableHead>
          <TableHead className="text-right">Draws paying more</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {answer.limits.map((l) => {
          // a chance finer than one draw in all of them allows none: the limit is the worst draw
          const allowed = Math.floor(l.exceedProbability * answer.draws);
          return (
            <TableRow key={l.exceedProbability}>
              <TableCell className="whitespace-normal">
                {oneInWords(l.exceedProbability)} draws ({formatPercent(l.exceedProbability)})
                {allowed === 0 ? (
                  <span className="text-muted-foreground block text-xs">
                    finer than 1 draw in {formatCount(answer.draws)}: the worst draw
                  </span>
                ) : null}
              </TableCell>
              <TableCell className="text-right font-medium tabular-nums">
                {money(l.budget)}
              </TableCell>
              <TableCell className="text-right whitespace-normal tabular-nums">
                {l.exceeding === 0 ? 'none' : countsOf(l.exceeding, answer.draws)}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/**
 * The ten combinations that cost most in the draws over the session's budget (a range: its
 * maximum), from `POST /api/power7/sessions/:id/exposure/`. An error is one line: the rest of the
 * report stands without it.
 */
export function ReportExposure({ status }: { status: Power7Status }) {
  const over = budgetBandOf(status.params).max;
  const currency = currencyOf(status.params);
  const query = useExposureQuery({
    session: status._id,
    over,
    by: 'combination',
    limit: REPORT_EXPOSURE_TOP,
  });
  if (query.error) {
    return (
      <p className="text-sm" role="status" data-testid="power7-report-exposure-error">
        The exposure ranking could not be loaded: {sentence(errorMessage(query.error))} The rest of
        the report is complete without it.
      </p>
    );
  }
  if (!query.data) return <Skeleton className="h-40" aria-label="Loading the exposure" />;
  const answer = query.data;
  if (answer.draws === 0) {
    return (
      <p className="text-sm" data-testid="power7-report-exposure-none">
        No draw pays more than the budget of {formatMoney(over, currency)}: nothing to rank.
      </p>
    );
  }
  return (
    <div className="grid gap-2" data-testid="power7-report-exposure">
      <p className="text-sm">
        {shareOfDraws(answer.draws, drawsOf(status))} pay more than the budget of{' '}
        {formatMoney(over, currency)}, {formatMoney(answer.tailTotal, currency)} in all. The{' '}
        {Math.min(REPORT_EXPOSURE_TOP, answer.ranked)} combinations paid most in those draws
        {answer.ranked > REPORT_EXPOSURE_TOP
          ? ` (of ${formatCount(answer.ranked)} with a payout there)`
          : ''}
        :
      </p>
      <ExposureRows
        session={status._id}
        answer={answer}
        canOpen={false}
        {...(currency ? { currency } : {})}
      />
    </div>
  );
}

/** A message as a sentence: ending with its stop. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

const drawsOf = (status: Power7Status) => status.counts.draws ?? status.counts.drawsEvaluated ?? 0;
