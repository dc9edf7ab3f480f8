import { PICK } from './model';

/**
 * The draw with the highest total seen so far, ties going to the smaller combination (compared
 * number by number): how every "worst draw" and "breach draw" of the liability limit and the live
 * book is chosen, whatever order the draws are looked at in.
 */
export class BestDraw {
  total = -1;
  numbers: number[] = [];

  consider(total: number, numbers: ArrayLike<number>): void {
    if (total > this.total || (total === this.total && lexLess(numbers, this.numbers))) {
      this.total = total;
      this.numbers = Array.from(numbers);
    }
  }
}

/** Whether combination a comes before b number by number (any a comes before an empty b). */
export function lexLess(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (b.length === 0) return true;
  for (let i = 0; i < PICK; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
