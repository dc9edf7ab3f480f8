import fc from 'fast-check';

/** A ticket of the pool: 7 distinct numbers, ascending. */
export const ticketArb = (pool: number) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: pool }), { minLength: 7, maxLength: 7 })
    .map((t) => t.sort((a, b) => a - b));

/** A payout: often 0, whole amounts, or amounts with cents. */
export const moneyArb = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 0, max: 2000 }),
  fc.integer({ min: 0, max: 200000 }).map((c) => c / 100),
);
