/**
 * The Power 7 service's requests and answers, shared by the service (validation, OpenAPI) and the
 * web app (forms, types): the `@pa/contracts/power7` entry. Each part lives in its own file, by
 * meaning, and is re-exported here by name: sessions (`power7-sessions.ts`), the upload form and
 * rerun (`power7-upload.ts`), amounts as typed or sent (`power7-amounts.ts`), draws, filters and
 * winners (`power7-draws.ts`), insight (`power7-insight.ts`), exposure (`power7-exposure.ts`) and
 * the liability limit (`power7-liability.ts`). The game's limits (`power7-limits.ts`) are shared
 * too, so the engine, the service and the browser apply the same numbers.
 */

export {
  DEFAULT_POOL,
  type DrawSortKey,
  INSIGHT_MAX_BUDGETS,
  INSIGHT_MAX_EXCEED_TARGETS,
  INSIGHT_MAX_EXCESS_TARGETS,
  INSIGHT_MAX_RANGES,
  INSIGHT_MAX_SHORTFALL_LEVELS,
  MATCH_TYPES,
  type MatchTypeNumber,
  MAX_AMOUNT,
  MAX_POOL,
  MIN_POOL,
  QUANTILE_KEYS,
  SORT_KEYS,
  XLSX_MAX_ROWS,
} from './power7-limits';
export {
  clearAllAnswerSchema,
  type Power7Session,
  type Power7Status,
  rejectedRowSchema,
  type RejectedRowView,
  SESSION_NAME_MAX,
  SESSION_NOTE_MAX,
  SESSION_STATUSES,
  type SessionEdit,
  sessionEditSchema,
  type SessionParams,
  sessionParamsSchema,
  sessionSchema,
  type SessionStatus,
  statusSchema,
} from './power7-sessions';
export { amountTextProblem, withoutThousandsSeparators } from './power7-amounts';
export {
  CURRENCIES,
  PAYOUT_FIELDS,
  type PayoutField,
  type RerunBody,
  rerunBodySchema,
  type UploadFormInput,
  uploadFormFromParams,
  uploadFormSchema,
} from './power7-upload';
export {
  comboParam,
  type DrawFilters,
  drawFiltersSchema,
  type DrawRow,
  drawRowSchema,
  type DrawStats,
  filterAnswerSchema,
  type FilterAnswerView,
  type FilterBody,
  filterBodySchema,
  matchTypeParam,
  statsSchema,
  type WinnerRow,
  winnerRowSchema,
  type WinnersAnswer,
  winnersAnswerSchema,
} from './power7-draws';
export {
  type InsightAnswer,
  insightAnswerSchema,
  type InsightBody,
  insightBodySchema,
} from './power7-insight';
export {
  EXPOSURE_BY,
  EXPOSURE_DEFAULT_LIMIT,
  EXPOSURE_MAX_LIMIT,
  type ExposureBy,
  type ExposureAnswer,
  exposureAnswerSchema,
  type ExposureBody,
  exposureBodySchema,
  type ExposureItem,
  exposureItemSchema,
} from './power7-exposure';
export {
  type CapAnswerView,
  capAnswerSchema,
  type LimitAnswerView,
  limitAnswerSchema,
  type LimitApplyBody,
  limitApplySchema,
  type LimitBody,
  limitBodySchema,
  type LimitJobView,
  limitJobSchema,
  limitQuerySchema,
  liabilityLimit,
} from './power7-liability';
