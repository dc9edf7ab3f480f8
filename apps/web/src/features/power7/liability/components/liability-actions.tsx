import { BookOpenCheck, FilePlus2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { useApplyLimitMutation, useCapRunQuery } from '../../api/liability-endpoints';
import { useOpenBookMutation } from '../../api/book-endpoints';
import { useDownload } from '../../hooks/use-download';
import { DownloadButtons } from '../../components/download-buttons';
import { useLimitAnswer } from '../hooks/use-limit-answer';

type Mode = 'sales-order' | 'cap';

// long labels wrap on a narrow screen rather than push the page sideways
const WRAPS = 'h-auto min-h-9 max-w-full shrink whitespace-normal py-2 text-left';

/** The refused rows as files, and a new session of the tickets the limit (or its cap) keeps. */
export function LiabilityActions({
  session,
  limit,
  canDownload,
}: {
  session: string;
  limit: number;
  canDownload: boolean;
}) {
  const navigate = useNavigate();
  const downloads = useDownload();
  const [apply, applying] = useApplyLimitMutation();
  const [pending, setPending] = useState<Mode | null>(null);
  // the answers on screen (the same cached questions): nothing to make until they are in, and
  // nothing with a cap that fits no ticket or a limit that accepts none
  const accepted = useLimitAnswer({ session, limit }).answer?.accepted;
  const cap = useCapRunQuery({ session, limit }).currentData?.cap;
  const [failure, setFailure] = useState<string | null>(null);
  const [openBook, opening] = useOpenBookMutation();
  const refusedPath = `/api/power7/sessions/${encodeURIComponent(session)}/limit/refused.csv?limit=${limit}`;

  const makeSession = async (mode: Mode) => {
    setFailure(null);
    setPending(mode);
    try {
      const created = await apply({ session, body: { limit, mode } }).unwrap();
      void navigate(`/app/power7/process?session=${encodeURIComponent(created._id)}`);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setPending(null);
    }
  };

  // a live book of the session under this limit, then its terminal (opening reads every ticket and
  // may take seconds on a big session: the button says so meanwhile)
  const startBook = async () => {
    setFailure(null);
    try {
      const book = await openBook({ session, limit }).unwrap();
      void navigate(`/app/power7/books/${encodeURIComponent(book._id)}`);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <section className="grid gap-3" aria-label="Refused tickets and a new session">
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      {canDownload ? (
        <div className="flex flex-wrap items-center gap-2">
          <DownloadButtons
            className={WRAPS}
            downloads={downloads}
            files={(['csv', 'xlsx'] as const).map((format) => ({
              key: format,
              url: `${refusedPath}&${format === 'csv' ? 'params=1' : 'format=xlsx'}`,
              name: `power7-${session}-refused-over-${limit}.${format}`,
              label: `Download refused tickets (${format.toUpperCase()})`,
            }))}
          />
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button
          className={WRAPS}
          disabled={applying.isLoading || !accepted}
          onClick={() => void makeSession('sales-order')}
        >
          <FilePlus2 className="size-4" aria-hidden="true" />
          {pending === 'sales-order'
            ? 'Making the session…'
            : 'Make a session of the accepted tickets'}
        </Button>
        <Button
          variant="outline"
          className={WRAPS}
          disabled={applying.isLoading || !cap}
          onClick={() => void makeSession('cap')}
        >
          <FilePlus2 className="size-4" aria-hidden="true" />
          {pending === 'cap' ? 'Making the session…' : 'Make a session with the cap'}
        </Button>
        <Button
          variant="outline"
          className={WRAPS}
          disabled={opening.isLoading}
          aria-busy={opening.isLoading || undefined}
          onClick={() => void startBook()}
        >
          <BookOpenCheck className="size-4" aria-hidden="true" />
          {opening.isLoading ? 'Opening the book…' : 'Open a live book'}
        </Button>
      </div>
      <LiabilityNotes opening={opening.isLoading} accepted={accepted} cap={cap} />
    </section>
  );
}

/** What the buttons above do, and why one of them is off. */
function LiabilityNotes({
  opening,
  accepted,
  cap,
}: {
  opening: boolean;
  accepted: number | undefined;
  cap: number | undefined;
}) {
  return (
    <>
      <p className="text-muted-foreground text-sm" aria-live="polite">
        {opening
          ? 'Opening a live book: every ticket of the session is checked against the limit, which takes a few seconds on a big file.'
          : 'A live book keeps the tickets this limit accepts and sells new ones at a terminal, refusing any that would take a draw past it.'}
      </p>
      {accepted === 0 ? (
        <p className="text-muted-foreground text-sm">
          The limit accepts no ticket, so there is no session to make.
        </p>
      ) : null}
      {cap === 0 ? (
        <p className="text-muted-foreground text-sm">
          No cap fits, so there is no session to make with it.
        </p>
      ) : null}
    </>
  );
}
