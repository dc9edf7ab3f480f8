import { PICK } from './model';

/**
 * The numbers a ticket shares with many draws at once, bit-sliced (ADR 029): per number of the pool
 * and group of 32 draws, a bit per draw holding it (`holdingOf`); a ticket's seven words added in
 * three bit planes give each of 32 draws its count of shared numbers in ~50 operations, so only the
 * draws sharing three or more are looked at one by one. The leaves of the limit run in sales order
 * (`sales-order.ts`) and of the walk that names each refused ticket's breach draw
 * (`liability.ts`'s `sellInOrder`) check tickets this way. For one ticket against one draw: each set
 * of numbers as two 32-bit masks (`masksOf`) and a popcount (`pop32`).
 */

/**
 * Whether the ticket at tickets[p..p+7) would take one of the leaf's draws past the limit; per
 * group of 32 draws, the bit planes of the numbers it shares with each (b0, b1, b2) and the draws
 * sharing three or more, into `planes` (the leaf's kernel: ~50 operations per 32 draws).
 */
export function anyBreach(
  tickets: Uint8Array,
  p: number,
  holding: Int32Array,
  groups: number,
  planes: Int32Array,
  total: Float64Array,
  w: Float64Array,
  limit: number,
): boolean {
  for (let g = 0; g < groups; g++) {
    const hit = sliceGroup(tickets, p, holding, groups, g, planes);
    for (let h = hit; h !== 0; h &= h - 1) {
      const i = 31 - Math.clz32(h & -h);
      if (total[32 * g + i]! + w[sharedBy(planes, g, i)]! > limit) return true;
    }
  }
  return false;
}

/**
 * Group g's three bit planes of the numbers the ticket at tickets[p..p+7) shares with each of its 32
 * draws, and the draws sharing three or more, into planes[4g..4g+3]; returns those draws' bits.
 */
function sliceGroup(
  tickets: Uint8Array,
  p: number,
  holding: Int32Array,
  groups: number,
  g: number,
  planes: Int32Array,
): number {
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let j = 0; j < PICK; j++) {
    const x = holding[tickets[p + j]! * groups + g]!;
    const c0 = b0 & x;
    b0 ^= x;
    b2 |= b1 & c0;
    b1 ^= c0;
  }
  const hit = b2 | (b1 & b0);
  planes[4 * g] = b0;
  planes[4 * g + 1] = b1;
  planes[4 * g + 2] = b2;
  planes[4 * g + 3] = hit;
  return hit;
}

/** The numbers draw i of group g shares with the ticket whose planes these are. */
function sharedBy(planes: Int32Array, g: number, i: number): number {
  return (
    ((planes[4 * g]! >>> i) & 1) +
    2 * ((planes[4 * g + 1]! >>> i) & 1) +
    4 * ((planes[4 * g + 2]! >>> i) & 1)
  );
}

/** Per number of the pool and group of 32 draws of `draws`, a bit per draw holding the number. */
export function holdingOf(hot: Uint8Array, pool: number, draws: Int32Array): Int32Array {
  const groups = (draws.length + 31) >>> 5;
  const holding = new Int32Array((pool + 1) * groups);
  for (let i = 0; i < draws.length; i++) {
    const p = draws[i]! * PICK;
    for (let j = 0; j < PICK; j++) holding[hot[p + j]! * groups + (i >>> 5)]! |= 1 << (i & 31);
  }
  return holding;
}

/** Calls fn(draw's index, numbers shared) for each draw sharing three or more (`anyBreach`' planes). */
export function forEachShare(
  planes: Int32Array,
  groups: number,
  fn: (i: number, m: number) => void,
): void {
  for (let g = 0; g < groups; g++) {
    for (let h = planes[4 * g + 3]!; h !== 0; h &= h - 1) {
      const i = 31 - Math.clz32(h & -h);
      fn(32 * g + i, sharedBy(planes, g, i));
    }
  }
}

/**
 * `anyBreach`' walk that goes on past the first breach: the index (in the leaf's draws) of the draw
 * the ticket at tickets[p..p+7) would take highest past the limit — ties to the smaller combination
 * (`before`) — its total into `worst[0]`; −1 when it fits them all. The planes are left as
 * `anyBreach` leaves them.
 */
export function worstBreach(
  tickets: Uint8Array,
  p: number,
  holding: Int32Array,
  groups: number,
  planes: Int32Array,
  total: Float64Array,
  w: Float64Array,
  limit: number,
  before: (i: number, j: number) => boolean,
  worst: Float64Array,
): number {
  let best = -1;
  let bestTotal = -1;
  for (let g = 0; g < groups; g++) {
    const hit = sliceGroup(tickets, p, holding, groups, g, planes);
    for (let h = hit; h !== 0; h &= h - 1) {
      const k = 31 - Math.clz32(h & -h);
      const i = 32 * g + k;
      const t = total[i]! + w[sharedBy(planes, g, k)]!;
      if (t > limit && (t > bestTotal || (t === bestTotal && before(i, best)))) {
        best = i;
        bestTotal = t;
      }
    }
  }
  worst[0] = bestTotal;
  return best;
}

/** Two 32-bit words per set of numbers (1..49): bit n−1 of word 0 for n ≤ 32, the rest in word 1. */
export function masksOf(sets: Uint8Array, count: number): Uint32Array {
  const out = new Uint32Array(count * 2);
  for (let t = 0, p = 0; t < count; t++, p += PICK) {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < PICK; i++) {
      lo |= LOW_BIT[sets[p + i]!]!;
      hi |= HIGH_BIT[sets[p + i]!]!;
    }
    out[2 * t] = lo;
    out[2 * t + 1] = hi;
  }
  return out;
}

/** `masksOf` of the `marked` sets whose `mask` byte is set, in order, without copying their numbers. */
export function masksWhere(sets: Uint8Array, mask: Uint8Array, marked: number): Uint32Array {
  const out = new Uint32Array(marked * 2);
  for (let t = 0, k = 0; t < mask.length; t++) {
    if (!mask[t]) continue;
    const p = t * PICK;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < PICK; i++) {
      lo |= LOW_BIT[sets[p + i]!]!;
      hi |= HIGH_BIT[sets[p + i]!]!;
    }
    out[k++] = lo;
    out[k++] = hi;
  }
  return out;
}

/** Number n's bit in the low / high word of a set's masks. */
export const LOW_BIT = Int32Array.from({ length: 64 }, (_, n) =>
  n >= 1 && n <= 32 ? 1 << (n - 1) : 0,
);
export const HIGH_BIT = Int32Array.from({ length: 64 }, (_, n) => (n > 32 ? 1 << (n - 33) : 0));

export function pop32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
