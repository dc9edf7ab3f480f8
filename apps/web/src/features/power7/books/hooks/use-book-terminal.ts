import type { BookResult, BookView } from '@pa/contracts/power7-books';
import { useState } from 'react';
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
    setPending(action);
    try {
      const data = await sell({
        id: book._id,
        body: {
          tickets: parsed.tickets.map((t) => t.ticket),
          dryRun,
          // fresh per press: the base query's retry after a refresh repeats the same body, and the
          // service answers a repeated key with its first answer, so nothing is sold twice
          requestId: newRequestId(),
        },
      }).unwrap();
      const tickets = parsed.tickets.map((t, i) => ({
        ...t,
        result: data.results[i] ?? { accepted: false },
      }));
      setAnswer({ dryRun, tickets, summary: answerSummary(data) });
      if (!dryRun) {
        const sold = new Set(tickets.filter((t) => t.result.accepted).map((t) => t.line));
        setText((current) => withoutLines(current, sold));
      }
    } catch (error) {
      const status = isApiError(error) ? error.status : undefined;
      if (status === 400 && isApiError(error)) {
        const named = error.data.errors
          .map((item) => ({ line: lineOfField(item.field, parsed.tickets), message: item.message }))
          .filter((item): item is LineError => item.line !== undefined);
        setErrors(named.length ? named : [{ line: 0, message: errorMessage(error) }]);
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
