import type { BookView } from '@pa/contracts/power7-books';
import { FilePlus2, Lock } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { useBookSessionMutation, useCloseBookMutation } from '../../api/book-endpoints';
import { formatCount } from '../../lib/format';

/** Close the book (no more sales), and a new session of the book's tickets to analyse. */
export function BookActions({ book }: { book: BookView }) {
  const navigate = useNavigate();
  const [close, closing] = useCloseBookMutation();
  const [makeSession, making] = useBookSessionMutation();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onSession = async () => {
    setFailure(null);
    try {
      const created = await makeSession(book._id).unwrap();
      void navigate(`/app/power7/process?session=${encodeURIComponent(created._id)}`);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          className="h-auto min-h-9 whitespace-normal"
          disabled={making.isLoading || book.tickets === 0}
          onClick={() => void onSession()}
        >
          <FilePlus2 className="size-4" aria-hidden="true" />
          {making.isLoading ? 'Making the session…' : 'Make a session of the book’s tickets'}
        </Button>
        {book.status === 'open' ? (
          <Button variant="outline" onClick={() => setConfirming(true)}>
            <Lock className="size-4" aria-hidden="true" /> Close the book
          </Button>
        ) : null}
      </div>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Close this book?"
        description={`No ticket can be sold into it after this. Its ${formatCount(book.tickets)} tickets stay, and you can still make a session of them.`}
        confirmLabel="Close the book"
        cancelLabel="Keep it open"
        busy={closing.isLoading}
        onConfirm={async () => {
          await close(book._id).unwrap();
          return 'The book is closed.';
        }}
      />
    </div>
  );
}
