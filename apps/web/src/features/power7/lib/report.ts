import { MATCH_TYPES, type Power7Status } from '@pa/contracts/power7';
import { formatBytes, formatCount, formatMoney, formatPercent } from './format';

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

/** What was analysed: the file, the pool, the tickets, the payouts and the budget. */
export function parameterRows(status: Power7Status, currency?: string): ReportRow[] {
  const { params, counts } = status;
  const money = (v: number | null) => formatMoney(v ?? 0, currency);
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
  ];
}

/** How many draws there are and how many qualify (stay within the budget or its range). */
export function countRows(status: Power7Status): ReportRow[] {
  const draws = status.counts.draws ?? status.counts.drawsEvaluated;
  const qualified = status.counts.drawsQualified;
  const range = status.params.budget_type === 'range';
  return [
    {
      label: `Possible draws, C(${status.params.pool_size}, 7)`,
      value: countOrDash(draws),
    },
    {
      label: range ? 'Draws within the budget range' : 'Draws within the budget',
      value: countOrDash(qualified),
    },
    {
      label: 'Share of draws that qualify',
      value: draws && qualified !== undefined ? formatPercent(qualified / draws) : '—',
    },
  ];
}
