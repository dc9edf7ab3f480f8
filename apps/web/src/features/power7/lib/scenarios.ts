import { csvDocument } from '@pa/contracts/csv';
import type { InsightAnswer, Power7Session, SessionParams } from '@pa/contracts/power7';
import { formatMoney } from './format';

/** A session's budget as text: `≤ 60,000` or `40,000 – 90,000`. */
export function budgetText(params: SessionParams) {
  return params.budget_type === 'fixed'
    ? `≤ ${formatMoney(params.budget ?? 0)}`
    : `${formatMoney(params.budget_min ?? 0)} – ${formatMoney(params.budget_max ?? 0)}`;
}

/** Sessions compared side by side at most. */
export const MAX_COMPARED = 3;

/** Above this share of rejected rows a finished session warns before its results. */
export const REJECTED_WARNING_SHARE = 0.1;

/** The sessions of one customer file share this key: the upload their tickets came from. */
export const fileGroupOf = (session: Pick<Power7Session, '_id' | 'sourceSessionId'>) =>
  session.sourceSessionId ?? session._id;

/** `?sessions=a,b,c` of the compare page: distinct ids, at most three. */
export function comparedFromSearch(search: URLSearchParams): string[] {
  const ids = (search.get('sessions') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return [...new Set(ids)].slice(0, MAX_COMPARED);
}

export const compareLink = (ids: readonly string[]) =>
  `/app/power7/compare?sessions=${ids.slice(0, MAX_COMPARED).map(encodeURIComponent).join(',')}`;

/** The budgets a session's insight is asked about: its fixed budget, or both ends of its range. */
export function budgetsOf(params: SessionParams): number[] {
  return params.budget_type === 'fixed'
    ? [params.budget ?? 0]
    : [params.budget_min ?? 0, params.budget_max ?? 0];
}

/**
 * The warning of a session most of whose rows were rejected: the share rejected and the commonest
 * reason, or null at or below `REJECTED_WARNING_SHARE`.
 */
export function rejectedWarning(
  session: Pick<Power7Session, 'counts' | 'rejectedReasons'>,
): { share: number; reason: string | null; count: number } | null {
  const rejected = session.counts.rejected ?? 0;
  const read = session.counts.rowsRead ?? 0;
  if (!read || rejected / read <= REJECTED_WARNING_SHARE) return null;
  const [reason, count] = Object.entries(session.rejectedReasons ?? {}).reduce<
    [string | null, number]
  >((best, [kind, n]) => (n > best[1] ? [kind, n] : best), [null, 0]);
  return { share: rejected / read, reason, count };
}

/** The insight's tables (percentiles and budgets) as one CSV document, with its BOM. */
export function insightCsv(insight: InsightAnswer, currency?: string): string {
  const unit = currency ? ` (${currency})` : '';
  const rows: (string | number)[][] = [];
  for (const [q, total] of Object.entries(insight.quantiles)) {
    rows.push(['percentile', `${q} %`, total, '', '', '']);
  }
  for (const b of insight.budgets) {
    rows.push(['budget', b.budget, b.covered, b.share, b.exceedProbability, b.expectedExcess]);
  }
  rows.push(['worst draw', insight.worst.combo, insight.worst.totalPayout, '', '', '']);
  rows.push(['jackpot draws', insight.jackpotDraws, insight.jackpotShare, '', '', '']);
  return csvDocument(
    [
      'table',
      'percentile or budget',
      `total payout${unit} or draws covered`,
      'share covered',
      'exceed probability',
      `expected excess${unit}`,
    ],
    rows,
  );
}
