import { EngineError } from './errors';
import { type Budget, type Payouts, BINOM, MATCH_TYPES, toMinor } from './model';

/**
 * Integer money model of one analysis. Amounts are counted in "units" = `unit` minor units (cents),
 * where `unit` is the greatest common divisor of the payouts in cents, so every total is a small integer
 * held exactly in a float64. The folded weights (see `analyze.ts`) are integers too.
 */
export interface Weights {
  /** Minor units (cents) per unit. */
  unit: number;
  /** Payout per winning ticket in units, index = match type (0..2 unused, 0). */
  w: Float64Array;
  /** α_j = Σ_m w_m (-1)^(j-m) C(j,m): the total is Σ_j α_j N_j(D), N_j = Σ over j-subsets of the draw. */
  alpha: Float64Array;
  /** Folded per-layer weights, scaled by 24 so they are integers: β'_j = 24 α_j / (7-j)!. */
  beta: Float64Array;
  /** Inclusive qualification bounds on the total in units. */
  lo: number;
  hi: number;
}

const FACT = [1, 1, 2, 6, 24, 120, 720, 5040];
const SAFE = 2 ** 52;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * Derives the integer weights for payouts, budget and ticket count, and proves the whole computation
 * stays exact in float64: every intermediate layer sum is bounded by 7·T·Σ|β'_j|(6-j)!C(6,j) and every
 * total by T·max w, both required < 2^52. Throws PAYOUT_TOO_LARGE otherwise (never seen with
 * realistic payouts: 1M tickets and payouts up to 10^7 with cents fit easily).
 */
export function deriveWeights(payouts: Payouts, budget: Budget, tickets: number): Weights {
  let unit = 0;
  for (const m of MATCH_TYPES) unit = gcd(unit, toMinor(payouts[m]));
  if (unit === 0) unit = 1;
  const w = new Float64Array(8);
  for (const m of MATCH_TYPES) w[m] = toMinor(payouts[m]) / unit;
  const alpha = new Float64Array(8);
  const beta = new Float64Array(8);
  for (let j = 3; j <= 7; j++) {
    let a = 0;
    for (let m = 3; m <= j; m++) a += ((j - m) % 2 === 0 ? 1 : -1) * w[m]! * BINOM[j]![m]!;
    alpha[j] = a;
    if (j <= 6) beta[j] = (24 * a) / FACT[7 - j]!;
  }
  let layerBound = 0;
  for (let j = 3; j <= 6; j++) layerBound += Math.abs(beta[j]!) * FACT[6 - j]! * BINOM[6]![j]!;
  layerBound *= 7 * tickets;
  const maxW = Math.max(w[3]!, w[4]!, w[5]!, w[6]!, w[7]!);
  const totalBound = tickets * maxW;
  if (!(layerBound < SAFE) || !(totalBound < SAFE) || !(Math.abs(alpha[7]!) * tickets < SAFE)) {
    throw new EngineError(
      'PAYOUT_TOO_LARGE',
      `These payouts are too large to analyse ${tickets} tickets exactly (the sums would exceed ` +
        `2^52 cents). Use smaller payouts or round them to whole amounts.`,
      'payouts',
    );
  }
  let lo: number;
  let hi: number;
  if (budget.type === 'fixed') {
    lo = 0;
    hi = Math.floor(toMinor(budget.budget) / unit);
  } else {
    lo = Math.ceil(toMinor(budget.min) / unit);
    hi = Math.floor(toMinor(budget.max) / unit);
  }
  return { unit, w, alpha, beta, lo, hi };
}

/** A total in units as currency (e.g. 1234.5). */
export function unitsToAmount(units: number, unit: number): number {
  return (units * unit) / 100;
}
