import type { BookResult, BookView } from '@pa/contracts/power7-books';
import { useRef, useState } from 'react';
import { errorMessage, isApiError } from '@/lib/api/api-error';
import { useSellTicketsMutation } from '../../api/book-endpoints';
import { answerSummary, newRequestId } from '../lib/book-text';
import {
  lineOfField,
  parseTicketLines,
  withoutLines,
  type LineError,
  type TicketLine,
} from '../lib/ticket-lines';

/** One ticket of the last request with the book's answer for it. */
export interface AnsweredTicket extends TicketLine {
  result: BookResult;
}

export interface TerminalAnswer {
  dryRun: boolean;
  tickets: AnsweredTicket[];
  summary: string;
}

export type TerminalAction = 'check' | 'sell';

/** A failure after which the sale may or may not have happened: no answer was read. */
const unanswered = (status: unknown) =>
  typeof status === 'string' || (typeof status === 'number' && status >= 500);

/**
 * The sales terminal's state: the ticket box, its line errors (the browser's or the service's 400),
 * the last answer, a failure of the request (409 closed book, network). A sale leaves in the box only
 * the lines that were not sold, so what remains is what the customer still holds.
 */
export function useBookTerminal(book: Pick<BookView, '_id' | 'pool'>, onClosed: () => void) {
  const [sell, selling] = useSellTicketsMutation();
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<LineError[]>([]);
  const [answer, setAnswer] = useState<TerminalAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState<TerminalAction | null>(null);
  // the key of a sale that got no answer, with the tickets it carried: pressing Sell again on the
  // same tickets repeats that key, so the service answers with the first answer if it did sell
  const lostSale = useRef<{ tickets: string; requestId: string } | null>(null);

  const edit = (value: string) => {
    setText(value);
    if (errors.length) setErrors([]);
  };

  const submit = async (action: TerminalAction) => {
    if (pending) return;
    setFailure(null);
    const parsed = parseTicketLines(text, book.pool);
    setErrors(parsed.errors);
    if (parsed.errors.length) return;
    const dryRun = action === 'check';
    const tickets = parsed.tickets.map((t) => t.ticket);
    const signature = JSON.stringify(tickets);
    // fresh per press (the base query's retry after a token refresh repeats the same body), except
    // a Sell of the same tickets after one that got no answer: the service answers a repeated key
    // with its first answer, so a sale that did happen is not made twice
    const requestId =
      !dryRun && lostSale.current?.tickets === signature
        ? lostSale.current.requestId
        : newRequestId();
    setPending(action);
    try {
      const data = await sell({ id: book._id, body: { tickets, dryRun, requestId } }).unwrap();
      if (!dryRun) lostSale.current = null;
      const answered = parsed.tickets.map((t, i) => ({
        ...t,
        result: data.results[i] ?? { accepted: false },
      }));
      setAnswer({ dryRun, tickets: answered, summary: answerSummary(data) });
      if (!dryRun) {
        const sold = new Set(answered.filter((t) => t.result.accepted).map((t) => t.line));
        setText((current) => withoutLines(current, sold));
      }
    } catch (error) {
      const status = isApiError(error) ? error.status : undefined;
      if (!dryRun) {
        lostSale.current = unanswered(status) ? { tickets: signature, requestId } : null;
      }
      if (status === 400 && isApiError(error)) {
        const named = error.data.errors
          .map((item) => ({ line: lineOfField(item.field, parsed.tickets), message: item.message }))
          .filter((item): item is LineError => item.line !== undefined);
        setErrors(named.length ? named : [{ line: 0, message: errorMessage(error) }]);
      } else if (!dryRun && unanswered(status)) {
        setFailure(
          `${errorMessage(error)} The tickets may or may not have been sold: press Sell again with the same tickets to find out — a sale that went through is not made twice.`,
        );
      } else {
        setFailure(errorMessage(error));
        // the book was closed meanwhile (another terminal or tab): show it closed
        if (status === 409) onClosed();
      }
    } finally {
      setPending(null);
    }
  };

  return { text, edit, errors, answer, failure, pending, busy: selling.isLoading, submit };
}
