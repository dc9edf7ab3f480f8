import type { BookView } from '@pa/contracts/power7-books';
import { Lock } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

/** The live books' list; a book's terminal is `${BOOKS_URL}/:id`. */
export const BOOKS_URL = '/app/power7/books';

/** Open, or closed (no more sales), in words and not by colour alone. */
export function BookStatusBadge({ status }: { status: BookView['status'] }) {
  return status === 'open' ? (
    <Badge>Open</Badge>
  ) : (
    <Badge variant="outline">
      <Lock aria-hidden="true" /> Closed
    </Badge>
  );
}
