import type { InsightAnswer } from '@pa/contracts/power7';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { countsOf, formatCount, formatMoney, formatPercent, formatShareOf } from '../../lib/format';
import type { BudgetBand } from '../../lib/insight';

/** A chance of exceeding in words: "1 in 1,000 (0.10 %)", "never (the worst draw)". */
export function chanceWords(p: number): string {
  if (p === 0) return 'never (the worst draw)';
  return `1 in ${formatCount(Math.round(1 / p))} (${formatPercent(p)})`;
}

/**
 * The limits for the usual chances of exceeding, one row each: targets finer than one draw in all
 * of them give the worst draw, so they are left out (they would repeat its row).
 */
export function PresetLimits({ answer, currency }: { answer: InsightAnswer; currency?: string }) {
  const rows = answer.limits.filter(
    (l) => l.exceedProbability === 0 || Math.floor(l.exceedProbability * answer.draws) >= 1,
  );
  return (
    <Table
      scrollLabel="Budget for a chance of exceeding, scrolls sideways"
      aria-label="Budget for a chance of exceeding"
      data-testid="power7-preset-limits"
    >
      <TableHeader>
        <TableRow>
          <TableHead>Chance of exceeding at most</TableHead>
          <TableHead className="text-right">Budget</TableHead>
          <TableHead className="text-right">Draws paying more</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((l) => (
          <TableRow key={l.exceedProbability}>
            <TableCell>{chanceWords(l.exceedProbability)}</TableCell>
            <TableCell className="text-right font-medium tabular-nums">
              {formatMoney(l.budget, currency)}
            </TableCell>
            <TableCell className="text-right tabular-nums">
              {countsOf(l.exceeding, answer.draws)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** A shortfall level as written: 0.999 → "99.9 %" (no rounding: the levels are the analyst's). */
const levelText = (level: number) => `${Number((level * 100).toFixed(6))} %`;

/**
 * Expected shortfall (the mean of the most expensive draws) at 99, 99.9 and 99.99 %, and how far
 * the session's budget is overshot on average when it is.
 */
export function TailFigures({
  answer,
  band,
  currency,
}: {
  answer: InsightAnswer;
  band: BudgetBand;
  currency?: string;
}) {
  const money = (v: number) => formatMoney(v, currency);
  const atBudget = answer.budgets.find((b) => Math.abs(b.budget - band.max) < 0.005);
  return (
    <dl
      className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 xl:grid-cols-4"
      data-testid="power7-tail-figures"
    >
      {answer.shortfall.map((s) => (
        <div key={s.level} className="grid content-start gap-0.5">
          <dt className="text-muted-foreground">Expected shortfall at {levelText(s.level)}</dt>
          <dd>
            <span className="font-medium tabular-nums">{money(s.value)}</span>
            {s.draws === 1
              ? ': the most expensive draw'
              : `: the mean total of the ${formatCount(s.draws)} most expensive draws`}
          </dd>
        </div>
      ))}
      {atBudget ? (
        <div className="grid content-start gap-0.5">
          <dt className="text-muted-foreground">
            When your budget of {money(band.max)} is exceeded
          </dt>
          <dd data-testid="power7-mean-overshoot">
            {atBudget.meanOvershoot === null ? (
              'It never is: no draw pays more.'
            ) : (
              <>
                Overshot by{' '}
                <span className="font-medium tabular-nums">{money(atBudget.meanOvershoot)}</span> on
                average; {formatShareOf(atBudget.exceeding, answer.draws)} of draws pay more.
              </>
            )}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
