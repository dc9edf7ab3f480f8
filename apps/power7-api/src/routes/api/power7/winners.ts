import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { comboParam, matchTypeParam, winnersAnswerSchema } from '@pa/contracts/power7';
import type { MatchType } from '@pa/power7-engine/session-store';
import { csvAnswer } from '@pa/server-kit/openapi';
import { requirePermission, type Caller } from '../../../plugins/external/auth';
import { winnersDownload, type WinnersDownload } from '../../../modules/exports/winners-download';
import { bearer, owner, pageQuery, sessionErrors, sessionQuery } from './common';
import { exportQuery, sendExport } from './export-answer';

/** Winning tickets of one draw: a page of them, or their CSV (one match type or all). */
export async function winnerRoutes(app: FastifyInstance) {
  winnersPageRoute(app);
  downloadRoute(app);
  downloadAllRoute(app);
}

/** A page of the winning tickets of one draw and match type. */
function winnersPageRoute(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = app.power7.sessions;

  r.get(
    '/api/winners/:combo/:matchType/',
    {
      schema: {
        tags: ['power7'],
        summary: 'Winning tickets of one draw and match type (paginated)',
        security: bearer,
        params: z.object({ combo: comboParam, matchType: matchTypeParam }),
        querystring: sessionQuery.extend(pageQuery),
        response: { 200: envelopeSchema(winnersAnswerSchema), ...sessionErrors },
      },
    },
    async (request) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.download);
      const { combo, matchType } = request.params;
      const { page, pageSize, session: id } = request.query;
      const row = await queries.find(owner(caller), id);
      const session = await queries.open(row);
      const answer = await session.winners(combo, matchType as MatchType, page, pageSize);
      return ok({ ...answer, session: row.id });
    },
  );
}

const winnersSheet = {
  sheet: 'Winners',
  numeric: new Set(['match_type', 'payout', 'line']),
  money: new Set(['payout']),
};

/** The caller's winners download, audited once its first chunk is read (modules/exports). */
const downloadOf =
  (app: FastifyInstance) =>
  (request: FastifyRequest, caller: Caller, what: Omit<WinnersDownload, 'owner'>) =>
    winnersDownload(
      { queries: app.power7.sessions.queries, audit: app.power7.audit },
      request,
      caller,
      { owner: owner(caller), ...what },
    );

/** The CSV (or XLSX) of one match type's winners. */
function downloadRoute(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const download = downloadOf(app);

  r.get(
    '/api/download/:combo/:matchType/',
    {
      schema: {
        tags: ['power7'],
        summary: 'CSV of the winning tickets of one draw and match type',
        security: bearer,
        params: z.object({ combo: comboParam, matchType: matchTypeParam }),
        querystring: sessionQuery.extend(exportQuery),
        response: {
          200: csvAnswer(
            'The original columns + `match_type`, `matched_numbers`, `payout` (an attachment `power7-<combo>-match<m>.csv`, or `.xlsx` with `format=xlsx`)',
          ),
          ...sessionErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.download);
      const { combo, matchType } = request.params;
      const { session: id, format, params } = request.query;
      const { row, stream } = await download(request, caller, {
        id,
        combo,
        matchType: matchType as MatchType,
        format,
      });
      return sendExport(reply, {
        row,
        name: `power7-${combo}-match${matchType}`,
        what: `winners of draw ${combo}, ${matchType} matches`,
        chunks: stream,
        format,
        params,
        sheet: winnersSheet,
      });
    },
  );
}

/** The CSV (or XLSX) of every match type's winners. */
function downloadAllRoute(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const download = downloadOf(app);

  r.get(
    '/api/download-all/:combo/',
    {
      schema: {
        tags: ['power7'],
        summary: 'CSV of every winning ticket of one draw (match types 3..7)',
        security: bearer,
        params: z.object({ combo: comboParam }),
        querystring: sessionQuery.extend(exportQuery),
        response: {
          200: csvAnswer(
            'The winners of match types 3..7, as the one-type CSV (an attachment `power7-<combo>-all.csv`, or `.xlsx` with `format=xlsx`)',
          ),
          ...sessionErrors,
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.download);
      const { combo } = request.params;
      const { session: id, format, params } = request.query;
      const { row, stream } = await download(request, caller, {
        id,
        combo,
        matchType: 'all',
        format,
      });
      return sendExport(reply, {
        row,
        name: `power7-${combo}-all`,
        what: `winners of draw ${combo}, every match type`,
        chunks: stream,
        format,
        params,
        sheet: winnersSheet,
      });
    },
  );
}
