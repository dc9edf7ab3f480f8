import type { Paginated } from '@pa/contracts/list-query';
import type { Power7Session } from '@pa/contracts/power7';
import type {
  BookCreateBody,
  BookSale,
  BookSellAnswer,
  BookSellBody,
  BookView,
} from '@pa/contracts/power7-books';
import { power7Api } from '@/lib/api/power7-api';

const bookPath = (id: string) => `/power7/books/${encodeURIComponent(id)}`;

/** The book's state inside a sell answer (the answer is the state plus the tickets' results). */
function stateOf({ results: _results, dryRun: _dryRun, ...book }: BookSellAnswer): BookView {
  return book;
}

/**
 * The live books of issue #41 part 4 (docs/reference/power7-api.md). The cache tag types are the
 * seed's nine (config/constants.ts), so instead of a tag of their own every answer that carries a
 * book's state writes it into that book's cached query; the sales log is keyed by the book's `sold`
 * count (`asOf`), so a sale (here or at another terminal, seen on the book's next read) asks for the
 * log again, and the list is read afresh whenever it is shown.
 */
export const bookEndpoints = power7Api.injectEndpoints({
  endpoints: (build) => ({
    books: build.query<Paginated<BookView>, { page: number; pageSize: number }>({
      query: (params) => ({ url: '/power7/books/', params }),
    }),
    book: build.query<BookView, string>({
      query: (id) => `${bookPath(id)}/`,
    }),
    bookSales: build.query<
      Paginated<BookSale>,
      { id: string; page: number; pageSize: number; asOf: number }
    >({
      query: ({ id, page, pageSize }) => ({
        url: `${bookPath(id)}/sales/`,
        params: { page, pageSize },
      }),
    }),
    openBook: build.mutation<BookView, BookCreateBody>({
      query: (body) => ({ url: '/power7/books/', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(bookEndpoints.util.upsertQueryData('book', data._id, data));
      },
    }),
    // A mutation even as a dry run: each request carries its own idempotency key, and its answer is
    // the moment's, not something to cache.
    sellTickets: build.mutation<BookSellAnswer, { id: string; body: BookSellBody }>({
      query: ({ id, body }) => ({ url: `${bookPath(id)}/tickets/`, method: 'POST', body }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(bookEndpoints.util.upsertQueryData('book', id, stateOf(data)));
      },
    }),
    closeBook: build.mutation<BookView, string>({
      query: (id) => ({ url: `${bookPath(id)}/close/`, method: 'POST', body: {} }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(bookEndpoints.util.upsertQueryData('book', id, data));
      },
    }),
    // 202: a new session of the book's tickets, started like the liability tab's applied session
    bookSession: build.mutation<Power7Session, string>({
      query: (id) => ({ url: `${bookPath(id)}/session/`, method: 'POST', body: {} }),
      invalidatesTags: ['Power7Process'],
    }),
  }),
});

export const {
  useBooksQuery,
  useBookQuery,
  useBookSalesQuery,
  useOpenBookMutation,
  useSellTicketsMutation,
  useCloseBookMutation,
  useBookSessionMutation,
} = bookEndpoints;
