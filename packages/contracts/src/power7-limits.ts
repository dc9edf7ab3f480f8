/**
 * The Power 7 game's limits and fixed lists, without zod: the engine's worker threads and CLI import
 * them from here, so they do not load the validation library they never run (`power7.ts` re-exports
 * them for the service and the web app).
 */

export const MIN_POOL = 8;
export const MAX_POOL = 49;
export const DEFAULT_POOL = 35;
/** Largest amount accepted (currency units); keeps minor-unit arithmetic far inside 2^53. */
export const MAX_AMOUNT = 1e12;

export const MATCH_TYPES = [3, 4, 5, 6, 7] as const;
export type MatchTypeNumber = (typeof MATCH_TYPES)[number];

/** What the qualifying draws can be sorted by. */
export const SORT_KEYS = [
  'totalPayout',
  'combo',
  'winners3',
  'winners4',
  'winners5',
  'winners6',
  'winners7',
] as const;
export type DrawSortKey = (typeof SORT_KEYS)[number];

/** Most budgets and ranges one insight question may hold. */
export const INSIGHT_MAX_BUDGETS = 50;
export const INSIGHT_MAX_RANGES = 20;
/** Most exceedance targets, expected-excess targets and shortfall levels one insight question may hold. */
export const INSIGHT_MAX_EXCEED_TARGETS = 20;
export const INSIGHT_MAX_EXCESS_TARGETS = 20;
export const INSIGHT_MAX_SHORTFALL_LEVELS = 10;

/** Quantile q: the smallest total T such that at least q % of draws have a total ≤ T. */
export const QUANTILE_KEYS = ['50', '90', '95', '99', '99.9', '99.99', '99.999'] as const;

/** Rows of one XLSX sheet besides its header (Excel's limit): a larger export is CSV only. */
export const XLSX_MAX_ROWS = 1_048_575;
