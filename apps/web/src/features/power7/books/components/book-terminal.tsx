import type { BookView } from '@pa/contracts/power7-books';
import { ScanSearch, ShoppingCart } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { formatCount } from '../../lib/format';
import { BOOK_MAX_TICKETS } from '@pa/contracts/power7-books';
import { useBookTerminal, type TerminalAction } from '../hooks/use-book-terminal';
import { modifierKey } from '../lib/book-text';
import { lineErrorText, TICKET_LINE_FORMAT, type LineError } from '../lib/ticket-lines';
import { BookAnswers } from './book-answers';

/** Which action a key press asks for: Ctrl/Cmd+Enter checks, Ctrl/Cmd+Shift+Enter sells. */
function shortcutOf(event: React.KeyboardEvent): TerminalAction | null {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.altKey) return null;
  return event.shiftKey ? 'sell' : 'check';
}

function Keys({ keys }: { keys: string[] }) {
  return (
    <span className="hidden gap-0.5 sm:inline-flex" aria-hidden="true">
      {keys.map((key) => (
        <kbd key={key} className="rounded border border-current/40 px-1 font-sans text-xs">
          {key}
        </kbd>
      ))}
    </span>
  );
}

/**
 * The sales terminal of an open book: the ticket box (focused when the page opens), Check (a dry
 * run: nothing kept) and Sell, keyboard-first, each line's mistakes before anything is sent, the
 * service's answer ticket by ticket with a one-sentence summary announced politely.
 */
export function BookTerminal({ book, onClosed }: { book: BookView; onClosed: () => void }) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const terminal = useBookTerminal(book, onClosed);
  const mod = modifierKey();
  const { errors, answer, failure, pending } = terminal;

  useEffect(() => box.current?.focus(), []);

  const run = (action: TerminalAction) => {
    void terminal.submit(action).then(() => box.current?.focus());
  };

  return (
    <section
      className="grid gap-4"
      aria-labelledby={`${id}-title`}
      data-testid="power7-book-terminal"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Sell tickets
      </h2>
      <form
        noValidate
        className="grid gap-3"
        aria-labelledby={`${id}-title`}
        onSubmit={(event) => {
          event.preventDefault();
          run('sell');
        }}
      >
        <div className="grid gap-2">
          <Label htmlFor={`${id}-box`}>Tickets, one per line</Label>
          <p id={`${id}-help`} className="text-muted-foreground text-sm">
            Write each ticket as <code className="font-mono">{TICKET_LINE_FORMAT}</code>: its 7
            numbers (1 to {book.pool}) separated by spaces, commas or dashes, then, if you like, a
            customer id and a name after semicolons. Up to {formatCount(BOOK_MAX_TICKETS)} at once.
          </p>
          <Textarea
            ref={box}
            id={`${id}-box`}
            rows={6}
            spellCheck={false}
            autoComplete="off"
            placeholder={'3 9 14 20 22 30 31; C-104; Ana Díaz\n1-2-3-4-5-6-7'}
            className="max-h-96 font-mono"
            value={terminal.text}
            readOnly={pending !== null}
            aria-invalid={errors.length ? true : undefined}
            aria-describedby={`${id}-help${errors.length ? ` ${id}-errors` : ''}`}
            aria-keyshortcuts="Control+Enter Meta+Enter Control+Shift+Enter Meta+Shift+Enter"
            onChange={(event) => terminal.edit(event.target.value)}
            onKeyDown={(event) => {
              const action = shortcutOf(event);
              if (!action) return;
              event.preventDefault();
              run(action);
            }}
          />
          {errors.length ? <LineErrors id={`${id}-errors`} errors={errors} /> : null}
        </div>
        <TerminalButtons pending={pending} mod={mod} onCheck={() => run('check')} />
        <p className="text-muted-foreground text-sm">
          {mod}+Enter checks without selling; {mod}+Shift+Enter sells. A sale leaves in the box only
          the tickets that were not sold.
        </p>
      </form>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <p
        className="text-sm font-medium"
        role="status"
        aria-live="polite"
        data-testid="power7-book-summary"
      >
        {pending === 'check'
          ? 'Checking the tickets…'
          : pending === 'sell'
            ? 'Selling the tickets…'
            : (answer?.summary ?? '')}
      </p>
      {answer ? (
        <BookAnswers answer={answer} book={book} />
      ) : (
        <p className="text-muted-foreground text-sm" data-testid="power7-book-no-answer">
          Each ticket’s answer shows here: accepted, or refused with the draw it would push past the
          limit and what that draw would pay.
        </p>
      )}
    </section>
  );
}

/** The lines that need fixing before anything is sent (the first 20, then how many more). */
function LineErrors({ id, errors }: { id: string; errors: LineError[] }) {
  return (
    <div
      id={id}
      role="alert"
      className="text-destructive grid gap-1 text-sm"
      data-testid="power7-book-line-errors"
    >
      <p className="font-medium">
        {errors.length === 1
          ? 'Nothing was sent: one line needs fixing.'
          : `Nothing was sent: ${formatCount(errors.length)} lines need fixing.`}
      </p>
      <ul className="list-disc pl-5">
        {errors.slice(0, 20).map((error) => (
          <li key={`${error.line}:${error.message}`}>{lineErrorText(error)}</li>
        ))}
      </ul>
      {errors.length > 20 ? <p>… and {formatCount(errors.length - 20)} more.</p> : null}
    </div>
  );
}

/** Check (a dry run) and Sell (the form's submit), with their shortcuts shown on a wide screen. */
function TerminalButtons({
  pending,
  mod,
  onCheck,
}: {
  pending: TerminalAction | null;
  /** The modifier key's name on this platform ("Ctrl", "⌘"). */
  mod: string;
  onCheck: () => void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        type="button"
        variant="outline"
        disabled={pending !== null}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        onClick={onCheck}
      >
        <ScanSearch className="size-4" aria-hidden="true" />
        {pending === 'check' ? 'Checking…' : 'Check'}
        <Keys keys={[mod, 'Enter']} />
      </Button>
      <Button
        type="submit"
        disabled={pending !== null}
        aria-keyshortcuts="Control+Shift+Enter Meta+Shift+Enter"
      >
        <ShoppingCart className="size-4" aria-hidden="true" />
        {pending === 'sell' ? 'Selling…' : 'Sell'}
        <Keys keys={[mod, 'Shift', 'Enter']} />
      </Button>
    </div>
  );
}
