import { useParams } from 'react-router';
import { BookPage } from '@/features/power7/books/components/book-page';

/** Loaded on demand by the route's `lazy` (see routes.tsx); keyed by the id so another book starts afresh. */
export function Component() {
  const { id = '' } = useParams();
  return <BookPage key={id} id={id} />;
}
