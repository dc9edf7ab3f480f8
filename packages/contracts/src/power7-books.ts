import { z } from 'zod';
import { MAX_POOL } from './power7-limits';
import { liabilityLimit } from './power7-liability';

/**
 * The live book of a liability limit (issue #41 part 4, docs/product/services.md "Live book"): a
 * session's tickets accepted under a limit, into which sales terminals sell new tickets one request
 * at a time, each checked exactly against every draw.
 */

/** Tickets one `POST /api/power7/books/:id/tickets/` may carry. */
export const BOOK_MAX_TICKETS = 1000;

/** `POST /api/power7/books/`: open a book on a finished session under a limit. */
export const bookCreateSchema = z.strictObject({
  session: z.string({ error: 'Name the session the book starts from.' }).min(1).max(100),
  limit: liabilityLimit,
  /** A name for the book (the terminal shows it); default: the session's file name and the limit. */
  name: z.string().trim().min(1).max(120).optional(),
});
export type BookCreateBody = z.input<typeof bookCreateSchema>;

const ticketNumber = z
  .number({ error: 'Each number must be a whole number.' })
  .int('Each number must be a whole number.')
  .min(1, 'Each number must be at least 1.')
  .max(MAX_POOL, `Each number must be at most ${MAX_POOL}.`);

/** One ticket offered for sale: 7 distinct numbers of the pool (the service checks the pool). */
export const bookTicketSchema = z.strictObject({
  numbers: z
    .array(ticketNumber, { error: 'A ticket needs its 7 numbers.' })
    .length(7, 'A ticket has exactly 7 numbers.'),
  customerId: z.string().trim().max(100).optional(),
  name: z.string().trim().max(200).optional(),
});
export type BookTicket = z.input<typeof bookTicketSchema>;

/** `POST /api/power7/books/:id/tickets/`. */
export const bookSellSchema = z.strictObject({
  tickets: z
    .array(bookTicketSchema, { error: 'Send the tickets as a list.' })
    .min(1, 'Send at least one ticket.')
    .max(BOOK_MAX_TICKETS, `Send at most ${BOOK_MAX_TICKETS} tickets at once.`),
  /** Check only: every ticket is checked in order as if the accepted ones before it were sold; nothing is kept. */
  dryRun: z.boolean().optional(),
  /**
   * An idempotency key: a request repeated with the same key (say, after a lost answer) gets the
   * first answer's results again and sells nothing twice.
   */
  requestId: z.string().trim().min(1).max(100).optional(),
});
export type BookSellBody = z.input<typeof bookSellSchema>;

const num = z.number();
const drawTotalSchema = z.object({ combo: z.string(), totalPayout: num });

export const BOOK_STATUSES = ['open', 'closed'] as const;

/** A book's state: what `GET /api/power7/books/:id/` answers. */
export const bookSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** The session it started from, and that session's game. */
  session: z.string(),
  pool: num,
  payouts: z.object({ 3: num, 4: num, 5: num, 6: num, 7: num }),
  currency: z.string().optional(),
  limit: num,
  status: z.enum(BOOK_STATUSES),
  /** Tickets in the book: the session's tickets accepted under the limit, then every ticket sold. */
  tickets: num,
  /** Of those, sold into the book since it opened. */
  sold: num,
  /** Tickets the book refused since it opened (dry runs not counted). */
  refused: num,
  /** The draw that pays most with the book's tickets (ties: the smaller combination). */
  worst: drawTotalSchema,
  /** limit − worst.totalPayout: the most any one more ticket's win may add to a draw. */
  headroom: num,
  createdAt: z.string(),
  closedAt: z.string().nullable(),
});
export type BookView = z.infer<typeof bookSchema>;

/** One ticket's answer: accepted, or refused with the draw it would push highest past the limit. */
export const bookResultSchema = z.object({
  accepted: z.boolean(),
  /** Refused only: that draw and its total had the ticket been sold. */
  draw: z.string().optional(),
  wouldBe: num.optional(),
});
export type BookResult = z.infer<typeof bookResultSchema>;

/** `POST /api/power7/books/:id/tickets/`: each ticket's answer, in order, and the book after them. */
export const bookSellAnswerSchema = bookSchema.extend({
  results: z.array(bookResultSchema),
  dryRun: z.boolean(),
});
export type BookSellAnswer = z.infer<typeof bookSellAnswerSchema>;

/** A sale in the book's log (`GET /api/power7/books/:id/sales/`, newest first). */
export const bookSaleSchema = z.object({
  /** 1-based position among the book's sales. */
  seq: num,
  numbers: z.array(num),
  customerId: z.string().optional(),
  name: z.string().optional(),
  soldAt: z.string(),
});
export type BookSale = z.infer<typeof bookSaleSchema>;
