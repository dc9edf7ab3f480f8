import { MATCH_TYPES, type Power7Status } from '@pa/contracts/power7';
import { formatBytes, formatCount, formatShareOf } from '../../lib/format';
import { currencyOf, moneyOf } from '../../lib/money';

/** One labelled line of the report's parameters and counts. */
export interface ReportRow {
  label: string;
  value: string;
}

/** The report's title: the session's name once sessions have one, else the uploaded file's. */
export const reportTitle = (
  status: Pick<Power7Status, 'originalName'> & { name?: string | null },
) => status.name?.trim() || status.originalName || 'Power 7 analysis';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short' });
/** "26 November 2026 at 05:12" in the reader's time zone. */
export const formatDateTime = (date: Date | string) => dateTime.format(new Date(date));

const countOrDash = (value: number | undefined) => (value === undefined ? '—' : formatCount(value));

/** What was analysed: the file, the pool, the tickets, the payouts and the budget, in its currency. */
export function parameterRows(status: Power7Status): ReportRow[] {
  const { params, counts } = status;
  const m = moneyOf(params);
  const money = (v: number | null) => m(v ?? 0);
  return [
    { label: 'File', value: `${status.originalName ?? '—'} (${formatBytes(status.fileBytes)})` },
    { label: 'Pool', value: `numbers 1 to ${params.pool_size}, 7 drawn` },
    { label: 'Rows read', value: countOrDash(counts.rowsRead) },
    { label: 'Tickets accepted', value: countOrDash(counts.accepted) },
    { label: 'Rows rejected', value: countOrDash(counts.rejected) },
    ...[...MATCH_TYPES].reverse().map((m) => ({
      label: `Payout, ${m} matches`,
      value: money(params.payouts[m]),
    })),
    params.budget_type === 'fixed'
      ? { label: 'Budget (fixed)', value: `at most ${money(params.budget)}` }
      : {
          label: 'Budget (range)',
          value: `from ${money(params.budget_min)} to ${money(params.budget_max)}`,
        },
    { label: 'Currency', value: currencyOf(params) ?? 'none named' },
  ];
}

/** A range's draws on each side of it, from the insight (the session's counts do not hold them). */
export interface RangeSides {
  below: number;
  above: number;
}

/**
 * How many draws there are and where they fall against the budget: within it (its share with the
 * counts); for a range also below its minimum and above its maximum — "6.8 % within" alone reads as
 * poor coverage when 91.4 % of draws cost less than the minimum.
 */
export function countRows(status: Power7Status, sides?: RangeSides | null): ReportRow[] {
  const draws = status.counts.draws ?? status.counts.drawsEvaluated;
  const qualified = status.counts.drawsQualified;
  const range = status.params.budget_type === 'range';
  const share = (part: number | undefined) =>
    draws && part !== undefined ? formatShareOf(part, draws) : '—';
  return [
    {
      label: `Possible draws, C(${status.params.pool_size}, 7)`,
      value: countOrDash(draws),
    },
    {
      label: range ? 'Draws within the budget range' : 'Draws within the budget',
      value: share(qualified),
    },
    ...(range
      ? [
          { label: 'Draws below its minimum (cost less)', value: share(sides?.below) },
          { label: 'Draws above its maximum (cost more)', value: share(sides?.above) },
        ]
      : [
          {
            label: 'Draws above the budget',
            value: share(
              draws !== undefined && qualified !== undefined ? draws - qualified : undefined,
            ),
          },
        ]),
  ];
}
