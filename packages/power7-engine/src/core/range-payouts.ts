import { BulkSums } from './bulk-sums';
import { RangeSums } from './range-sums';

/**
 * What a range of tickets pays the hot draws of a liability limit, counted the cheaper of two exact
 * ways (ADR 029): a long range as the analysis counts (`BulkSums`), a shorter one by its small
 * subsets and the hot draws' index (`RangeSums`). Both walks in sales order use it: the limit run's
 * decisions (`sales-order.ts`) and the breach walk of the refused rows (`liability.ts`).
 */
export class RangePayouts {
  readonly sums: RangeSums;
  private bulk: BulkSums | undefined;

  constructor(
    private readonly tickets: Uint8Array,
    count: number,
    private readonly hot: Uint8Array,
    private readonly pool: number,
    private readonly w: Float64Array,
    private readonly tuning: { bulk?: boolean; subsetSize?: 5 | 6 | 7 },
  ) {
    this.sums = new RangeSums(tickets, count, hot, pool, w, tuning.subsetSize);
  }

  /** Whether a range of `left` tickets is counted as the analysis counts. */
  inBulk(left: number): boolean {
    return this.tuning.bulk !== false && BulkSums.pays(left, this.pool);
  }

  /**
   * What the `left` tickets of [from, to) whose `skip` byte is 0 pay each hot draw of `draws`,
   * into add[d].
   */
  payoutsOf(
    from: number,
    to: number,
    skip: Uint8Array,
    left: number,
    draws: ArrayLike<number>,
    add: Float64Array,
  ): void {
    if (this.inBulk(left)) {
      const bulk = (this.bulk ??= new BulkSums(this.tickets, this.hot, this.pool, this.w));
      bulk.count(from, to, skip);
      for (let i = 0; i < draws.length; i++) add[draws[i]!] = bulk.sumOf(draws[i]!);
      bulk.clear();
      return;
    }
    const { sums } = this;
    sums.count(from, to, skip);
    for (let i = 0; i < draws.length; i++) add[draws[i]!] = sums.sumOf(draws[i]!);
    sums.clear(from, to, skip);
  }
}
