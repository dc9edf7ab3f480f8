import type { BookView } from '@pa/contracts/power7-books';
import { cn } from '@/lib/utils';
import { formatCount } from '../../lib/format';
import { money } from '../../lib/money';
import { Figure } from '../../liability/components/limit-figures';
import { gaugeOf } from '../lib/book-text';

/** Past this share of the limit the gauge turns to the warning colour (and says so in words too). */
const NEARLY_FULL = 0.9;

/**
 * The book's head-room as a meter (the share of the limit its worst draw uses, with the same in
 * words as its value text and under it) and the book's figures: limit, worst draw, head-room,
 * tickets, sold and refused here.
 */
export function BookGauge({ book }: { book: BookView }) {
  const gauge = gaugeOf(book);
  const m = (v: number) => money(v, book.currency);
  const full = gauge.used >= NEARLY_FULL;
  return (
    <section className="grid gap-4" aria-label="Head-room" data-testid="power7-book-gauge">
      <div className="grid gap-1.5">
        <div
          role="meter"
          aria-label="Limit used by the worst draw"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={gauge.percent}
          aria-valuetext={gauge.words}
          className="bg-primary/20 h-4 w-full overflow-hidden rounded-full"
        >
          <div
            className={cn('h-full rounded-full', full ? 'bg-destructive' : 'bg-primary')}
            style={{ width: `${gauge.percent}%` }}
          />
        </div>
        <p className="text-sm">
          {gauge.words}
          {full && book.headroom > 0 ? ' Nearly full.' : null}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3 lg:grid-cols-6 sm:gap-x-6">
        <Figure label="Limit per draw" value={m(book.limit)} />
        <Figure label="Worst draw" value={m(book.worst.totalPayout)} note={book.worst.combo} />
        <Figure label="Head-room" value={m(book.headroom)} />
        <Figure label="Tickets in the book" value={formatCount(book.tickets)} />
        <Figure label="Sold here" value={formatCount(book.sold)} />
        <Figure label="Refused here" value={formatCount(book.refused)} />
      </dl>
    </section>
  );
}
