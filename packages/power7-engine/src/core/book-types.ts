/** Every draw's total in units, by colex rank. */
export type DrawTotals = Uint32Array | Float64Array;

export interface BookGame {
  pool: number;
  /** Payout per winning ticket in units, index = matches (0..2 unused). */
  w: ArrayLike<number>;
  /** The limit in units: no draw may pay more. */
  limit: number;
}

export interface BookTuning {
  /** Draws the watch should hold at most (it holds more when the limit leaves no other choice). */
  watchCap: number;
  /** Tickets sold between folds at most. */
  maxDeferred: number;
  /** Tickets between folds at least, even if the watch grows past its cap. */
  minDeferred: number;
  /** Sales between folds at least for the 5-match payouts to be deferred (fewer: folds cost more than they save). */
  fivesDeferredMin: number;
}

/** A draw and its total in units (for a refusal: what the total would have been). */
export interface BookDraw {
  numbers: number[];
  total: number;
}
