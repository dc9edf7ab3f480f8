import type { BookView } from '@pa/contracts/power7-books';
import { CircleCheck, CircleX } from 'lucide-react';
import { Link } from 'react-router';
import { NumberBalls } from '../../components/common';
import { matchedIn } from '../../liability/lib/limit-text';
import type { TerminalAnswer } from '../hooks/use-book-terminal';
import { drawLink, resultWords } from '../lib/book-text';

/**
 * Each ticket of the last Check or Sell with the book's answer: accepted, or refused with the draw
 * it would push past the limit (a link to that draw's winners in the book's session) and what that
 * draw would then pay. The summary sentence above is the page's polite live region (BookTerminal).
 */
export function BookAnswers({ answer, book }: { answer: TerminalAnswer; book: BookView }) {
  return (
    <ol className="grid gap-2" aria-label="Answers" data-testid="power7-book-answers">
      {answer.tickets.map(({ line, ticket, result }) => {
        const matched = result.draw ? matchedIn(ticket.numbers, result.draw) : undefined;
        return (
          <li
            key={line}
            data-testid="power7-book-answer"
            data-accepted={result.accepted}
            className="grid gap-1.5 rounded-md border p-3"
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-muted-foreground w-14 text-sm tabular-nums">Line {line}</span>
              <NumberBalls
                numbers={ticket.numbers}
                highlight={matched}
                label={
                  matched
                    ? `${ticket.numbers.join(', ')}; in that draw ${matched.join(', ') || 'none'}`
                    : ticket.numbers.join(', ')
                }
              />
            </div>
            <div className="grid min-w-0 gap-0.5 text-sm">
              <p className="flex items-start gap-1.5 font-medium">
                {result.accepted ? (
                  <CircleCheck
                    className="mt-0.5 size-4 shrink-0 text-green-700 dark:text-green-400"
                    aria-hidden="true"
                  />
                ) : (
                  <CircleX className="text-destructive mt-0.5 size-4 shrink-0" aria-hidden="true" />
                )}
                <span className="break-words">{resultWords(result, answer.dryRun, book)}</span>
              </p>
              {result.draw ? (
                <p>
                  <Link
                    to={drawLink(book.session, ticket.numbers, result.draw)}
                    className="text-primary underline underline-offset-4"
                  >
                    Winners of draw {result.draw} in the session
                  </Link>
                </p>
              ) : null}
              {ticket.customerId || ticket.name ? (
                <p className="text-muted-foreground break-words">
                  {[ticket.customerId, ticket.name].filter(Boolean).join(' · ')}
                </p>
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
