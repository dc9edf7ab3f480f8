import { CSV_BOM, csvDocument } from '@pa/contracts/csv';
import {
  MATCH_TYPES,
  type InsightAnswer,
  type Power7Session,
  type SessionParams,
} from '@pa/contracts/power7';
import { budgetMoney, currencyOf, payoutsMoney, withUnit } from '../../lib/money';

/** Sessions compared side by side at most. */
export const MAX_COMPARED = 3;

/** Above this share of rejected rows a finished session warns before its results. */
export const REJECTED_WARNING_SHARE = 0.1;

/** The sessions of one customer file share this key: the upload their tickets came from. */
export const fileGroupOf = (session: Pick<Power7Session, '_id' | 'sourceSessionId'>) =>
  session.sourceSessionId ?? session._id;

type RunSession = Pick<Power7Session, '_id' | 'sourceSessionId' | 'createdAt' | 'name' | 'params'>;

/** An upload (its own tickets) or a rerun (another session's tickets under other parameters). */
export const runKind = (session: Pick<Power7Session, 'sourceSessionId'>) =>
  session.sourceSessionId ? 'rerun' : 'upload';

/** The order runs of one file are listed and compared in: the upload, then its reruns, oldest first. */
export const byRunOrder = (a: RunSession, b: RunSession) =>
  Number(Boolean(a.sourceSessionId)) - Number(Boolean(b.sourceSessionId)) ||
  a.createdAt.localeCompare(b.createdAt) ||
  a._id.localeCompare(b._id);

const createdFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * What tells runs of one file apart, by id: the analyst's name with the kind ("Week 46 (rerun)"),
 * else the kind and the budget ("Rerun, budget ≤ €900.00"); when two labels would read the same,
 * the payouts are added, then the time the run was made.
 */
export function runLabels(runs: readonly RunSession[]): Map<string, string> {
  const labels = new Map(
    runs.map((s) => {
      const name = s.name?.trim();
      const kind = runKind(s);
      const label = name
        ? `${name} (${kind})`
        : `${kind === 'upload' ? 'Upload' : 'Rerun'}, budget ${budgetMoney(s.params)}`;
      return [s._id, label];
    }),
  );
  const more = [
    (s: RunSession) => `, payouts ${payoutsMoney(s.params)}`,
    (s: RunSession) => `, made ${createdFormat.format(new Date(s.createdAt))}`,
  ];
  for (const detail of more) {
    const counts = new Map<string, number>();
    for (const label of labels.values()) counts.set(label, (counts.get(label) ?? 0) + 1);
    for (const s of runs) {
      const label = labels.get(s._id)!;
      if (counts.get(label)! > 1) labels.set(s._id, label + detail(s));
    }
  }
  return labels;
}

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

const byKey = <T>(items: T[], key: (item: T) => number | string) => [
  ...new Map(items.map((item) => [key(item), item])).values(),
];
const cents = (value: number) => Math.round(value * 100);

/**
 * Every answer the session's insight gave (the results screen, the risk view, each "Try a budget")
 * as one: the figures that do not depend on the question from the first, and every budget, range,
 * limit and shortfall asked, each once, in rising order. Null when there is no answer.
 */
export function mergeInsight(answers: readonly InsightAnswer[]): InsightAnswer | null {
  const [first] = answers;
  if (!first) return null;
  const all = <K extends 'budgets' | 'ranges' | 'limits' | 'excessLimits' | 'shortfall'>(k: K) =>
    answers.flatMap((a) => a[k] as InsightAnswer[K][number][]);
  return {
    ...first,
    budgets: byKey(all('budgets'), (b) => cents(b.budget)).sort((a, b) => a.budget - b.budget),
    ranges: byKey(all('ranges'), (r) => `${cents(r.min)}-${cents(r.max)}`).sort(
      (a, b) => a.min - b.min || a.max - b.max,
    ),
    limits: byKey(all('limits'), (l) => l.exceedProbability).sort(
      (a, b) => b.exceedProbability - a.exceedProbability,
    ),
    excessLimits: byKey(all('excessLimits'), (l) => l.expectedExcess).sort(
      (a, b) => b.expectedExcess - a.expectedExcess,
    ),
    shortfall: byKey(all('shortfall'), (s) => s.level).sort((a, b) => a.level - b.level),
  };
}

/** What the insight CSV's parameters block names: the session and its parameters. */
export type InsightCsvSession = Pick<Power7Session, '_id' | 'originalName' | 'params'>;

/** A line of the parameters block: one quoted cell, `"# budget: at most 900"`. */
const parameterLine = (text: string) => `"${text.replaceAll('"', '""')}"\r\n`;

/** The parameters block's lines (without `# `): what a file alone must say to be traced to its run. */
export function insightParameters(session: InsightCsvSession, draws: number): string[] {
  const { params } = session;
  return [
    `file: ${session.originalName ?? 'unknown'}`,
    `session: ${session._id}`,
    `pool: numbers 1 to ${params.pool_size}, 7 drawn (${draws} draws)`,
    `payouts: ${MATCH_TYPES.map((m) => `${m} matches ${params.payouts[m]}`).join('; ')}`,
    `budget: ${
      params.budget_type === 'fixed'
        ? `fixed, at most ${params.budget ?? 0}`
        : `range, from ${params.budget_min ?? 0} to ${params.budget_max ?? 0}`
    }`,
    `currency: ${currencyOf(params) ?? 'none named'}`,
  ];
}

/**
 * The insight as one CSV document (BOM first): a parameters block of `# name: value` lines, each a
 * single quoted cell, then one table with a row per figure and one unit per column — amounts in the
 * session's currency, counts of draws, shares as fractions of all draws (0.25 = 25 %) — holding
 * every budget, range, limit and shortfall the session's insight was asked. docs/reference/screens.md
 * ("Insight tables (CSV)") describes the format.
 */
export function insightCsv(insight: InsightAnswer, session: InsightCsvSession): string {
  const currency = currencyOf(session.params);
  const header = [
    'row',
    'level',
    withUnit('budget', currency),
    withUnit('range minimum', currency),
    'draws covered',
    'share covered',
    'draws below the minimum',
    'draws exceeding',
    'chance of exceeding',
    withUnit('expected excess', currency),
    withUnit('mean overshoot when exceeded', currency),
    withUnit('total', currency),
    'draws',
    'share of draws',
    'combination',
  ] as const;
  // a row: its name, then the cells it has by column index, the others empty
  const row = (name: string, cells: Record<number, string | number>) =>
    header.map((_, i) => (i === 0 ? name : (cells[i] ?? '')));
  const [LEVEL, BUDGET, MIN, COVERED, SHARE, BELOW, EXCEEDING, CHANCE, EXCESS, OVERSHOOT] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
  ] as const;
  const [TOTAL, DRAWS, SHARE_OF, COMBO] = [11, 12, 13, 14] as const;
  const { draws } = insight;
  const rows = [
    row('all draws', { [DRAWS]: draws, [SHARE_OF]: 1 }),
    row('smallest total', { [TOTAL]: insight.min }),
    row('mean total', { [TOTAL]: insight.mean }),
    row('largest total', { [TOTAL]: insight.max }),
    row('worst draw', { [TOTAL]: insight.worst.totalPayout, [COMBO]: insight.worst.combo }),
    row('draws with a 7-match winner', {
      [DRAWS]: insight.jackpotDraws,
      [SHARE_OF]: insight.jackpotShare,
    }),
    ...Object.entries(insight.quantiles)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([q, budget]) =>
        row('budget for a share of draws', {
          [LEVEL]: Number((Number(q) / 100).toPrecision(12)),
          [BUDGET]: budget,
        }),
      ),
    ...insight.budgets.map((b) =>
      row('budget', {
        [BUDGET]: b.budget,
        [COVERED]: b.covered,
        [SHARE]: b.share,
        [EXCEEDING]: b.exceeding,
        [CHANCE]: b.exceedProbability,
        [EXCESS]: b.expectedExcess,
        [OVERSHOOT]: b.meanOvershoot ?? '',
      }),
    ),
    ...insight.ranges.map((r) =>
      row('budget range', {
        [BUDGET]: r.max,
        [MIN]: r.min,
        [COVERED]: r.within,
        [SHARE]: r.share,
        [BELOW]: r.below,
        [EXCEEDING]: r.above,
        [CHANCE]: draws ? r.above / draws : 0,
      }),
    ),
    ...insight.limits.map((l) =>
      row('limit for a chance of exceeding', {
        [LEVEL]: l.exceedProbability,
        [BUDGET]: l.budget,
        [EXCEEDING]: l.exceeding,
        [CHANCE]: draws ? l.exceeding / draws : 0,
      }),
    ),
    ...insight.excessLimits.map((l) =>
      row('limit for an expected excess', { [BUDGET]: l.budget, [EXCESS]: l.expectedExcess }),
    ),
    ...insight.shortfall.map((s) =>
      row('expected shortfall', { [LEVEL]: s.level, [TOTAL]: s.value, [DRAWS]: s.draws }),
    ),
  ];
  const table = csvDocument(header, rows);
  // the BOM stays first: the parameters block goes between it and the table
  return (
    CSV_BOM +
    insightParameters(session, draws)
      .map((line) => parameterLine(`# ${line}`))
      .join('') +
    table.slice(CSV_BOM.length)
  );
}
