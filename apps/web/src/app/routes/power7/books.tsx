import { BooksList } from '@/features/power7/books/components/books-list';

/** Loaded on demand by the route's `lazy` (see routes.tsx). */
export function Component() {
  return <BooksList />;
}
