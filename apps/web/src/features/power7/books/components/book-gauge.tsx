import type { BookView } from '@pa/contracts/power7-books';
import { formatCount } from '../../lib/format';
import { money } from '../../lib/money';
import { Figure, Figures, LimitMeter } from '../../liability/components/limit-figures';
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
      <LimitMeter
        percent={gauge.percent}
        words={gauge.words}
        className="h-4"
        barClassName={full ? 'bg-destructive' : 'bg-primary'}
      >
        <p className="text-sm">
          {gauge.words}
          {full && book.headroom > 0 ? ' Nearly full.' : null}
        </p>
      </LimitMeter>
      <Figures className="sm:grid-cols-3 lg:grid-cols-6">
        <Figure label="Limit per draw" value={m(book.limit)} />
        <Figure label="Worst draw" value={m(book.worst.totalPayout)} note={book.worst.combo} />
        <Figure label="Head-room" value={m(book.headroom)} />
        <Figure label="Tickets in the book" value={formatCount(book.tickets)} />
        <Figure label="Sold here" value={formatCount(book.sold)} />
        <Figure label="Refused here" value={formatCount(book.refused)} />
      </Figures>
    </section>
  );
}
