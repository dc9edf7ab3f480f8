import { DEFAULT_POOL, MAX_AMOUNT, MAX_POOL, MIN_POOL } from '@pa/contracts/power7-limits';
import { EngineError } from './errors';

/** How many numbers a ticket and a draw hold. */
export const PICK = 7;
/** The game's limits are shared with the service and the browser. */
export { MIN_POOL, MAX_POOL, DEFAULT_POOL, MAX_AMOUNT };

/** A ticket's match type: how many of its numbers are in the draw (only 3..7 win). */
export type MatchType = 3 | 4 | 5 | 6 | 7;
export const MATCH_TYPES: readonly MatchType[] = [3, 4, 5, 6, 7];

/** Payout per winning ticket for each match type, in currency units (≥ 0, at most 2 decimals). */
export type Payouts = Readonly<Record<MatchType, number>>;

/** Winners of one draw per match type, keyed `"3"`..`"7"` as in the CLI JSON. */
export type WinnerCounts = Record<'3' | '4' | '5' | '6' | '7', number>;

/** `fixed`: total ≤ budget. `range`: min ≤ total ≤ max. Amounts in currency units. */
export type Budget =
  | { readonly type: 'fixed'; readonly budget: number }
  | { readonly type: 'range'; readonly min: number; readonly max: number };

/** Pascal's triangle up to 64: BINOM[n][k] = C(n, k) (exact, all < 2^53 for n ≤ 64, k ≤ 8). */
export const BINOM: readonly Float64Array[] = (() => {
  const rows: Float64Array[] = [];
  for (let n = 0; n <= 64; n++) {
    const row = new Float64Array(PICK + 2);
    row[0] = 1;
    for (let k = 1; k <= PICK + 1; k++)
      row[k] = n === 0 ? 0 : rows[n - 1]![k - 1]! + rows[n - 1]![k]!;
    rows.push(row);
  }
  return rows;
})();

/**
 * Fills `term[i·8 + k]` with C(e_i, k) (k = 1..6) for the 7 numbers of the set at `p` of `sets`
 * (1-based, ascending; e_i the 0-based number): the terms whose sums are the colex ranks of the set's
 * k-subsets, which the subset walks build prefix by prefix.
 */
export function loadRankTerms(term: Float64Array, sets: Uint8Array, p: number): void {
  for (let i = 0; i < PICK; i++) {
    const row = BINOM[sets[p + i]! - 1]!;
    for (let k = 1; k <= 6; k++) term[i * 8 + k] = row[k]!;
  }
}

/** C(n, k) for 0 ≤ n ≤ 64, 0 ≤ k ≤ 8. */
export function binom(n: number, k: number): number {
  return BINOM[n]![k]!;
}

/** Number of possible draws for a pool: C(P, 7). */
export function drawCount(pool: number): number {
  return binom(pool, PICK);
}

/**
 * The k-subset of colex rank `r` (rank of ascending 0-based elements e_i: Σ C(e_i, i+1)), written
 * ascending into `out[0..k)`. Colex order sorts by the largest element first, so all subsets whose
 * largest element is < m come before those containing m — the property the scan split relies on.
 */
export function colexUnrank(r: number, k: number, out: Uint8Array | number[], maxN = 63): void {
  let c = maxN;
  for (let i = k; i >= 1; i--) {
    while (BINOM[c]![i]! > r) c--;
    out[i - 1] = c;
    r -= BINOM[c]![i]!;
    c--;
  }
}

/** Validates a pool size (8..49). */
export function validatePool(pool: unknown, field = 'pool'): number {
  if (typeof pool !== 'number' || !Number.isInteger(pool) || pool < MIN_POOL || pool > MAX_POOL) {
    throw new EngineError(
      'INVALID_PARAMS',
      `The pool size must be a whole number from ${MIN_POOL} to ${MAX_POOL}; got ${String(pool)}.`,
      field,
    );
  }
  return pool;
}

/**
 * Parses the combo text form (`3-8-12-19-24-30-35`: seven distinct numbers of 1..pool, ascending,
 * joined by `-`, nothing else) into its numbers. Throws `EngineError('INVALID_COMBO')` otherwise.
 */
export function parseCombo(text: string, pool: number): number[] {
  const bad = (why: string): never => {
    throw new EngineError('INVALID_COMBO', `Invalid combo "${text}": ${why}.`, 'combo');
  };
  // the canonical form only (no leading zeros), so one draw has one combo text
  if (typeof text !== 'string' || !/^[1-9][0-9]?(-[1-9][0-9]?){6}$/.test(text)) {
    bad('expected seven numbers without leading zeros joined by "-", e.g. 3-8-12-19-24-30-35');
  }
  const nums = text.split('-').map(Number);
  for (let i = 0; i < nums.length; i++) {
    const n = nums[i]!;
    if (n < 1 || n > pool) bad(`${n} is outside the pool 1..${pool}`);
    if (i > 0 && n <= nums[i - 1]!) bad('the numbers must be distinct and ascending');
  }
  return nums;
}

/**
 * The tickets (7 numbers each) whose `mask` entry is set (`set`) or not, in file order. Copied a
 * number at a time: a view per ticket cost ~40 ms for 719K tickets (bench:book's opening).
 */
export function ticketsWhere(tickets: Uint8Array, mask: Uint8Array, set = true): Uint8Array {
  let n = 0;
  for (let t = 0; t < mask.length; t++) if ((mask[t] !== 0) === set) n++;
  const out = new Uint8Array(n * PICK);
  for (let t = 0, o = 0; t < mask.length; t++) {
    if ((mask[t] !== 0) !== set) continue;
    for (let i = t * PICK, end = i + PICK; i < end; i++) out[o++] = tickets[i]!;
  }
  return out;
}

/** The combo text form of seven ascending 1-based numbers. */
export function formatCombo(numbers: ArrayLike<number>): string {
  return Array.from(numbers).join('-');
}

/**
 * C(v - 1, k) at [v·8 + k] for a 1-based number v ≤ MAX_POOL in position k (1..7) of a ticket: the
 * terms of its colex rank, in one flat table (the rank loop runs ~1.5× faster than through `BINOM`'s
 * rows).
 */
export const TICKET_RANK_TERMS = (() => {
  const terms = new Uint32Array((MAX_POOL + 1) * 8);
  for (let v = 1; v <= MAX_POOL; v++)
    for (let k = 1; k <= PICK; k++) terms[v * 8 + k] = BINOM[v - 1]![k]!;
  return terms;
})();

/** The colex rank of the ticket at `tickets[p..p+7)` (seven ascending 1-based numbers). */
export function ticketRank(tickets: Uint8Array, p: number): number {
  const c = TICKET_RANK_TERMS;
  return (
    c[tickets[p]! * 8 + 1]! +
    c[tickets[p + 1]! * 8 + 2]! +
    c[tickets[p + 2]! * 8 + 3]! +
    c[tickets[p + 3]! * 8 + 4]! +
    c[tickets[p + 4]! * 8 + 5]! +
    c[tickets[p + 5]! * 8 + 6]! +
    c[tickets[p + 6]! * 8 + 7]!
  );
}

/** The seven ascending 1-based numbers of the draw with colex rank `rank`. */
export function numbersOfRank(rank: number): number[] {
  const out = [0, 0, 0, 0, 0, 0, 0];
  colexUnrank(rank, PICK, out, MAX_POOL - 1);
  return out.map((x) => x + 1);
}

/** Validates payouts: five finite numbers ≥ 0 with at most two decimals. */
export function validatePayouts(payouts: unknown): Payouts {
  if (typeof payouts !== 'object' || payouts === null) {
    throw new EngineError(
      'INVALID_PARAMS',
      'Payouts for match types 3..7 are required.',
      'payouts',
    );
  }
  const p = payouts as Record<string, unknown>;
  for (const m of MATCH_TYPES) {
    checkMoney(p[m], `payout_${m}`, `The payout for ${m} matches`);
  }
  return {
    3: p[3] as number,
    4: p[4] as number,
    5: p[5] as number,
    6: p[6] as number,
    7: p[7] as number,
  };
}

/** Validates a budget (amounts ≥ 0, at most two decimals, min ≤ max). */
export function validateBudget(budget: unknown): Budget {
  const b = budget as Partial<Record<string, unknown>> | null;
  if (b?.type === 'fixed') {
    checkMoney(b.budget, 'budget', 'The budget');
    return { type: 'fixed', budget: b.budget as number };
  }
  if (b?.type === 'range') {
    checkMoney(b.min, 'budget_min', 'The minimum budget');
    checkMoney(b.max, 'budget_max', 'The maximum budget');
    if ((b.min as number) > (b.max as number)) {
      throw new EngineError(
        'INVALID_PARAMS',
        'The minimum budget must not be greater than the maximum budget.',
        'budget_min',
      );
    }
    return { type: 'range', min: b.min as number, max: b.max as number };
  }
  throw new EngineError(
    'INVALID_PARAMS',
    'The budget type must be "fixed" or "range".',
    'budget_type',
  );
}

function checkMoney(v: unknown, field: string, what: string): void {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new EngineError('INVALID_PARAMS', `${what} must be a number ≥ 0.`, field);
  }
  if (v > MAX_AMOUNT) {
    throw new EngineError('INVALID_PARAMS', `${what} must not exceed ${MAX_AMOUNT}.`, field);
  }
  if (Math.abs(Math.round(v * 100) - v * 100) > 1e-6 * Math.max(1, v)) {
    throw new EngineError('INVALID_PARAMS', `${what} may have at most two decimals.`, field);
  }
}

/** An amount in integer minor units (cents). */
export function toMinor(v: number): number {
  return Math.round(v * 100);
}
