import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { envelopeSchema as env, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { MAX_PAGE_SIZE, paginate, paginatedSchema } from '@pa/contracts/list-query';
import {
  clearAllAnswerSchema,
  comboParam,
  filterAnswerSchema,
  filterBodySchema,
  matchTypeParam,
  sessionSchema,
  statusSchema,
  winnersAnswerSchema,
} from '@pa/contracts/power7';
import type { MatchType } from '@pa/power7-engine/session-store';
import { requirePermission, type Caller } from '../auth/auth';
import { FilterAnswers } from '../sessions/filter-answers';
import { UPLOAD_FILE } from '../sessions/memory';
import type { Power7Sessions } from '../sessions/service';
import { receiveUpload } from '../sessions/upload';

const owner = (caller: Caller) => ({ userId: caller.userId, companyId: caller.companyId });
const sessionQuery = z.object({ session: z.string().min(1).max(100).optional() });
const pageQuery = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
};
const bearer = [{ bearerAuth: [] }];

/** A download file name: `power7-<combo>-match<M>.csv` or `power7-<combo>-all.csv`. */
const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^0-9A-Za-z._-]/g, '_')}"`;

/** The Power 7 endpoints of the seed's table (docs/product/services.md §5). */
export async function power7Routes(app: FastifyInstance, sessions: Power7Sessions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { jobs, queries } = sessions;
  const filterAnswers = new FilterAnswers();

  r.post(
    '/api/upload/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'Upload a customer file (multipart: customer_file, budget_type, budget | budget_min + budget_max, payout_3..payout_7, pool_size?) and start its analysis',
        consumes: ['multipart/form-data'],
        security: bearer,
        response: { 202: env(sessionSchema) },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, 'power7.run');
      const id = uuidv7();
      const upload = await receiveUpload(request, sessions.memory.dirOf(id), UPLOAD_FILE);
      const row = await jobs.start(id, owner(caller), upload.params, {
        originalName: upload.originalName,
        bytes: upload.bytes,
        timings: { uploadMs: upload.uploadMs },
      });
      return reply
        .status(202)
        .send(
          ok(
            queries.view(row),
            'The file was received; its analysis has started.',
            ErrorCode.ACCEPTED,
          ),
        );
    },
  );

  r.get(
    '/api/power7/processing-status/',
    {
      schema: {
        tags: ['power7'],
        summary: "Progress, counts and errors of a session (the caller's latest by default)",
        security: bearer,
        querystring: sessionQuery,
        response: { 200: env(statusSchema) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, 'power7.run');
      const row = await queries.find(owner(caller), request.query.session);
      return ok({
        ...queries.view(row),
        rejectedSample: await queries.rejectedSample(row, 20),
        rejectedReport:
          row.status === 'done' || row.counts.rejected !== undefined
            ? `/api/power7/sessions/${row.id}/rejected.csv`
            : null,
      });
    },
  );

  r.get(
    '/api/power7/sessions/',
    {
      schema: {
        tags: ['power7'],
        summary: "The caller's sessions, newest first",
        security: bearer,
        querystring: z.object(pageQuery),
        response: { 200: env(paginatedSchema(sessionSchema)) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, 'power7.run');
      const { page, pageSize } = request.query;
      const { items, total } = await queries.list(owner(caller), page, pageSize);
      return ok(paginate(items, total, page, pageSize));
    },
  );

  r.get(
    '/api/power7/sessions/:id/rejected.csv',
    {
      schema: {
        tags: ['power7'],
        summary: 'The full rejected-rows report of a session (CSV: line, reason, raw)',
        security: bearer,
        params: z.object({ id: z.string().min(1).max(100) }),
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, 'power7.run');
      const row = await queries.find(owner(caller), request.params.id);
      const file = await queries.rejectedCsvPath(row);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(`power7-${row.id}-rejected-rows.csv`))
        .send(createReadStream(file));
    },
  );

  r.post(
    '/api/filter/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'Qualifying draws (filters, sort, page) with the payout histogram, min / mean / max and the worst-case draw',
        security: bearer,
        body: filterBodySchema,
        response: { 200: env(filterAnswerSchema) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, 'power7.run');
      const body = request.body;
      const row = await queries.find(owner(caller), body.session);
      const session = await queries.open(row);
      return ok(filterAnswers.answer(row.id, session, body));
    },
  );

  r.get(
    '/api/winners/:combo/:matchType/',
    {
      schema: {
        tags: ['power7'],
        summary: 'Winning tickets of one draw and match type (paginated)',
        security: bearer,
        params: z.object({ combo: comboParam, matchType: matchTypeParam }),
        querystring: sessionQuery.extend(pageQuery),
        response: { 200: env(winnersAnswerSchema) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, 'power7.download');
      const { combo, matchType } = request.params;
      const { page, pageSize, session: id } = request.query;
      const row = await queries.find(owner(caller), id);
      const session = await queries.open(row);
      const answer = await session.winners(combo, matchType as MatchType, page, pageSize);
      return ok({ ...answer, session: row.id });
    },
  );

  const download = async (
    caller: Caller,
    id: string | undefined,
    combo: string,
    matchType: MatchType | 'all',
  ) => {
    const row = await queries.find(owner(caller), id);
    const session = await queries.open(row);
    const iterable = session.winnersCsv(combo, matchType);
    // the first chunk is read here, so a bad combo is still a 400 and not a broken download
    const iterator = iterable[Symbol.asyncIterator]();
    const first = await iterator.next();
    async function* rest() {
      try {
        if (first.done) return;
        yield first.value;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      } finally {
        // a client that hangs up mid-download still closes the engine's file handle
        await iterator.return?.();
      }
    }
    return Readable.from(rest());
  };

  r.get(
    '/api/download/:combo/:matchType/',
    {
      schema: {
        tags: ['power7'],
        summary: 'CSV of the winning tickets of one draw and match type',
        security: bearer,
        params: z.object({ combo: comboParam, matchType: matchTypeParam }),
        querystring: sessionQuery,
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, 'power7.download');
      const { combo, matchType } = request.params;
      const stream = await download(caller, request.query.session, combo, matchType as MatchType);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(`power7-${combo}-match${matchType}.csv`))
        .send(stream);
    },
  );

  r.get(
    '/api/download-all/:combo/',
    {
      schema: {
        tags: ['power7'],
        summary: 'CSV of every winning ticket of one draw (match types 3..7)',
        security: bearer,
        params: z.object({ combo: comboParam }),
        querystring: sessionQuery,
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, 'power7.download');
      const { combo } = request.params;
      const stream = await download(caller, request.query.session, combo, 'all');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(`power7-${combo}-all.csv`))
        .send(stream);
    },
  );

  r.post(
    '/api/sessions/clear-all/',
    {
      schema: {
        tags: ['power7'],
        summary:
          "Deletes the caller's sessions, their files and results (running jobs are cancelled)",
        security: bearer,
        response: { 200: env(clearAllAnswerSchema) },
      },
    },
    async (request) => {
      const caller = requirePermission(request, 'power7.sessions.clear');
      const deleted = await sessions.clearAll(owner(caller));
      return ok({ deleted }, `${deleted} session(s) deleted.`);
    },
  );
}
