import { Link } from 'react-router';
import { MATCH_TYPES, type InsightAnswer } from '@pa/contracts/power7';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { countsOf, formatCount, formatMoney, formatPercent, formatShareOf } from '../lib/format';
import {
  nothingQualifiesReason,
  QUANTILE_LABELS,
  type BudgetBand,
  type Coverage,
} from '../lib/insight';
import { NumberBalls } from './common';

/**
 * "84.4 % of draws (5,674,106 of 6,724,520)"; under 1 % also how rare: "0.05 % of draws (3 of
 * 6,724,520, 1 in 2,241,507 draws)"; never 0.00 % or 100.00 % for what is not none or all.
 */
export const shareOfDraws = (part: number, draws: number) =>
  `${formatPercent(draws ? part / draws : 0)} of draws (${countsOf(part, draws)})`;

/** The answer to "what does my budget cover?", exact, with the risk above it. */
export function CoverageHeadline({
  coverage,
  answer,
  band,
  currency,
}: {
  coverage: Coverage;
  answer: InsightAnswer;
  band: BudgetBand;
  currency?: string;
}) {
  const money = (v: number) => formatMoney(v, currency);
  if (coverage.draws === 0) {
    return (
      <div role="status" className="grid gap-1" data-testid="power7-coverage-headline">
        <p className="text-lg font-semibold">No draw stays within your budget.</p>
        <p className="text-muted-foreground text-sm" data-testid="power7-nothing-qualifies">
          {nothingQualifiesReason(band, answer.min, money)}
        </p>
      </div>
    );
  }
  return (
    <div className="grid gap-1" data-testid="power7-coverage-headline">
      <p className="text-lg font-semibold">
        {band.min === null
          ? `Your budget of ${money(band.max)} covers ${shareOfDraws(coverage.draws, answer.draws)}.`
          : `${shareOfDraws(coverage.draws, answer.draws)} pay between ${money(band.min)} and ${money(band.max)}, your budget range.`}
      </p>
      {band.min !== null && coverage.below !== undefined && coverage.above !== undefined ? (
        <p className="text-sm" data-testid="power7-range-sides">
          {rangeSidesText(coverage.below, coverage.above, answer.draws, band.min, band.max, money)}
        </p>
      ) : null}
      <p className="text-muted-foreground text-sm">
        {excessText(coverage, answer.draws, money, band.max)}
      </p>
    </div>
  );
}

/** A range's two sides: "91.4 % of draws (…) pay less than its minimum 1,000.00; 1.8 % (…) more than its maximum 5,000.00." */
export function rangeSidesText(
  below: number,
  above: number,
  draws: number,
  min: number,
  max: number,
  money: (v: number) => string,
) {
  return `Outside it: ${shareOfDraws(below, draws)} pay less than its minimum of ${money(min)}; ${formatShareOf(above, draws)} pay more than its maximum of ${money(max)}.`;
}

/**
 * "Chance a draw pays more than 2,000.00: 15.6 % (1,049 of 6,724,520). Expected excess over it,
 * averaged over all draws: 123.45; when it is exceeded, by 790.12 on average."
 */
export function excessText(
  ceiling: {
    exceeding: number;
    expectedExcess: number;
    meanOvershoot: number | null;
    budget?: number;
  },
  draws: number,
  money: (v: number) => string,
  amount = ceiling.budget ?? 0,
) {
  if (ceiling.exceeding === 0) return `No draw pays more than ${money(amount)}.`;
  const overshoot =
    ceiling.meanOvershoot !== null
      ? `; when it is exceeded, by ${money(ceiling.meanOvershoot)} on average`
      : '';
  return `Chance a draw pays more than ${money(amount)}: ${formatShareOf(ceiling.exceeding, draws)}. Expected excess over it, averaged over all draws: ${money(ceiling.expectedExcess)}${overshoot}.`;
}

/** Smallest, mean and largest total, and how often the jackpot is hit. */
export function KeyFigures({ answer, currency }: { answer: InsightAnswer; currency?: string }) {
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
      <Figure label="Smallest total" value={formatMoney(answer.min, currency)} />
      <Figure label="Mean total" value={formatMoney(answer.mean, currency)} />
      <Figure label="Largest total" value={formatMoney(answer.max, currency)} />
      <Figure
        label="Draws with a 7-match winner"
        value={formatShareOf(answer.jackpotDraws, answer.draws)}
        testId="power7-jackpot-share"
      />
    </dl>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex flex-col">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The budget that covers 50 … 99.9 % of draws. */
export function PercentileTable({
  answer,
  currency,
}: {
  answer: InsightAnswer;
  currency?: string;
}) {
  return (
    <Table aria-label="Budget needed per share of draws" data-testid="power7-percentiles">
      <TableHeader>
        <TableRow>
          <TableHead>Draws covered</TableHead>
          <TableHead className="text-right">Budget needed</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {QUANTILE_LABELS.map(({ key, label }) => (
          <TableRow key={key}>
            <TableCell>{label}</TableCell>
            <TableCell className="text-right font-medium tabular-nums">
              {formatMoney(answer.quantiles[key], currency)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The results step of one draw, opened on its highest match type with a winner. */
export function drawResultsLink(session: string, combo: string, winners: Record<number, number>) {
  const top = [...MATCH_TYPES].reverse().find((m) => (winners[m] ?? 0) > 0) ?? 3;
  const params = new URLSearchParams({ session, combo, match: String(top) });
  return `/app/power7/results?${params.toString()}`;
}

/** The most expensive draw, linked to its winners when the user may see them. */
export function WorstDraw({
  session,
  answer,
  canOpen,
  currency,
}: {
  session: string;
  answer: InsightAnswer;
  canOpen: boolean;
  currency?: string;
}) {
  const numbers = answer.worst.combo.split('-').map(Number);
  const winners = MATCH_TYPES.filter((m) => answer.worst.winners[m] > 0)
    .reverse()
    .map((m) => `${formatCount(answer.worst.winners[m])} × ${m} matches`)
    .join(', ');
  return (
    <div className="grid gap-2 text-sm" data-testid="power7-worst-draw">
      <span className="text-muted-foreground">Worst-case draw</span>
      <div className="flex flex-wrap items-center gap-3">
        <NumberBalls numbers={numbers} label={`Worst-case draw ${numbers.join(', ')}`} />
        <span className="font-medium tabular-nums">
          pays {formatMoney(answer.worst.totalPayout, currency)}
        </span>
      </div>
      <span className="text-muted-foreground">{winners || 'No winner.'}</span>
      {canOpen ? (
        <Link
          className="text-primary w-fit underline underline-offset-4"
          to={drawResultsLink(session, answer.worst.combo, answer.worst.winners)}
        >
          See the winners of the worst-case draw
        </Link>
      ) : null}
    </div>
  );
}
