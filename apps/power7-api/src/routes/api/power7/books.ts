import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { paginate, paginatedSchema } from '@pa/contracts/list-query';
import {
  bookCreateSchema,
  bookSaleSchema,
  bookSchema,
  bookSellAnswerSchema,
  bookSellSchema,
} from '@pa/contracts/power7-books';
import { sessionSchema } from '@pa/contracts/power7';
import { errorAnswers } from '@pa/server-kit/openapi';
import { startBookSession } from '../../../modules/books/book-session';
import { requirePermission } from '../../../plugins/external/auth';
import { bearer, owner, pageQuery, sessionErrors, withRetryAfter } from './common';

const bookParams = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .meta({ examples: ['019ace52-44f1-7c2e-a7d3-5b1f0c9e2d84'] }),
});
const bookErrors = errorAnswers({
  404: 'No such book of the caller',
  409: 'The book is closed',
  503: 'Another request held the book for too long',
});

/**
 * The live books (issue #41 part 4, docs/product/services.md "Live book"): a session's tickets
 * accepted under a limit, into which sales terminals sell, each ticket checked against every draw.
 * Selling needs `power7.run`, as the session's analysis does (ADR 024).
 */
export async function bookRoutes(app: FastifyInstance) {
  openBookRoutes(app);
  sellRoutes(app);
  bookSessionRoute(app);
}

/** Opening a book, the list of the caller's books, and one book's state. */
function openBookRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries, memory } = app.power7.sessions;
  const { books } = app;

  r.post(
    '/api/power7/books/',
    {
      schema: {
        tags: ['power7'],
        summary:
          "Opens a live book: the session's tickets a limit accepts in sales order, ready to sell into",
        security: bearer,
        body: bookCreateSchema,
        response: { 201: envelopeSchema(bookSchema), ...sessionErrors },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const { session, limit, name } = request.body;
      const row = await queries.find(owner(caller), session);
      const opened = await queries.open(row);
      const keep = await opened.acceptedMask(limit, 'sales-order');
      const seed = await opened.bookSeed(limit);
      const book = await books.create(
        owner(caller),
        { row, dir: memory.dirOf(row.id), keep, seed },
        limit,
        name,
      );
      return reply.status(201).send(ok(book, 'The book is open.', ErrorCode.CREATED));
    },
  );

  r.get(
    '/api/power7/books/',
    {
      schema: {
        tags: ['power7'],
        summary: "The caller's live books, newest first",
        security: bearer,
        querystring: z.object(pageQuery),
        response: { 200: envelopeSchema(paginatedSchema(bookSchema)) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const { page, pageSize } = request.query;
      const { items, total } = await books.list(owner(caller), page, pageSize);
      return ok(paginate(items, total, page, pageSize));
    },
  );

  r.get(
    '/api/power7/books/:id/',
    {
      schema: {
        tags: ['power7'],
        summary: "A live book's state: tickets, worst draw, head-room",
        security: bearer,
        params: bookParams,
        response: { 200: envelopeSchema(bookSchema), ...bookErrors },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      return ok(await books.get(owner(caller), request.params.id));
    },
  );
}

/** Checking and selling tickets, the book's sales, and closing it. */
function sellRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { books } = app;

  r.post(
    '/api/power7/books/:id/tickets/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'Checks (dryRun) or sells tickets in order, each against every draw: accepted, or refused with the draw it would breach',
        security: bearer,
        params: bookParams,
        body: bookSellSchema,
        response: { 200: envelopeSchema(bookSellAnswerSchema), ...bookErrors },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const { tickets, dryRun, requestId } = request.body;
      const answer = await books.sell(owner(caller), request.params.id, tickets, {
        ...(dryRun !== undefined ? { dryRun } : {}),
        ...(requestId ? { requestId } : {}),
      });
      const sold = answer.results.filter((x) => x.accepted).length;
      const message = answer.dryRun
        ? `${sold} of ${tickets.length} would be accepted.`
        : `${sold} of ${tickets.length} sold.`;
      return ok(answer, message);
    },
  );

  r.get(
    '/api/power7/books/:id/sales/',
    {
      schema: {
        tags: ['power7'],
        summary: "A live book's sales, newest first",
        security: bearer,
        params: bookParams,
        querystring: z.object(pageQuery),
        response: { 200: envelopeSchema(paginatedSchema(bookSaleSchema)), ...bookErrors },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const { page, pageSize } = request.query;
      const { items, total } = await books.sales(owner(caller), request.params.id, page, pageSize);
      return ok(paginate(items, total, page, pageSize));
    },
  );

  r.post(
    '/api/power7/books/:id/close/',
    {
      schema: {
        tags: ['power7'],
        summary: 'Closes a live book to sales (it stays readable)',
        security: bearer,
        params: bookParams,
        response: { 200: envelopeSchema(bookSchema), ...bookErrors },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      return ok(await books.close(owner(caller), request.params.id), 'The book is closed.');
    },
  );
}

/** A new session of the book's tickets as sold. */
function bookSessionRoute(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/power7/books/:id/session/',
    {
      schema: {
        tags: ['power7'],
        summary:
          "A new session of the book's tickets as sold (the session's accepted tickets, then every sale)",
        security: bearer,
        params: bookParams,
        response: {
          202: envelopeSchema(sessionSchema),
          ...bookErrors,
          ...errorAnswers({
            413: 'The storage quota is used up',
            429: 'The user already has JOBS_PER_USER analyses queued or running (see Retry-After)',
          }),
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const { id, row, book } = await startBookSession(
        app.power7,
        app.books,
        owner(caller),
        request.params.id,
      ).catch(withRetryAfter(reply));
      await app.power7.audit.record(request, caller, 'power7.rerun', id, {
        sourceSessionId: book.session,
        book: book.id,
      });
      return reply
        .status(202)
        .send(
          ok(
            app.power7.sessions.queries.view(row),
            "The analysis of the book's tickets has started.",
            ErrorCode.ACCEPTED,
          ),
        );
    },
  );
}
