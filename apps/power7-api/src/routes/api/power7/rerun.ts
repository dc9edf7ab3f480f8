import type { FastifyInstance } from 'fastify';
import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { rerunBodySchema, sessionSchema } from '@pa/contracts/power7';
import { errorAnswers } from '@pa/server-kit/openapi';
import { visibleFileName } from '@pa/contracts/text';
import { requirePermission } from '../../../plugins/external/auth';
import { placeRerunFiles, rerunSource } from '../../../modules/sessions/rerun';
import { readBytesBound, resultBytesBound } from '../../../modules/sessions/output-bound';
import { startNewSession } from '../../../modules/sessions/new-session';
import { bearer, owner, sessionParams, withRetryAfter } from './common';

/**
 * `POST /api/power7/sessions/:id/rerun/`: the same customer file with other payouts, budget, pool or
 * currency, without uploading it again: a new session over the stored tickets of `:id`.
 */
export async function rerunRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries, memory } = app.power7.sessions;

  r.post(
    '/api/power7/sessions/:id/rerun/',
    {
      schema: {
        tags: ['power7'],
        summary:
          "Runs a session's stored tickets again with other parameters (the upload's fields without the file): a new session",
        description:
          "The body holds the upload form's fields (text or numbers): `budget_type`, `budget` | `budget_min` + `budget_max`, `payout_3`..`payout_7`, `pool_size`, `currency`, with the same rules. With the same pool the read tickets are reused (no file is read); with another one the stored rows are read again. The new session names the upload it came from (`sourceSessionId`).",
        security: bearer,
        params: sessionParams,
        body: rerunBodySchema,
        response: {
          202: envelopeSchema(sessionSchema),
          ...errorAnswers({
            404: 'No such session of the caller',
            409: 'The session has no read tickets (its file was not read, or held no valid row)',
            413: "The storage quota is used up: the user's sessions, with what their queued and running analyses may still write, leave no room for this one's results at their largest",
            429: 'The user already has JOBS_PER_USER analyses queued or running (see Retry-After)',
          }),
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const params = request.body;
      const source = await queries.find(owner(caller), request.params.id);
      let reread = false;
      const started = startNewSession(app.power7, owner(caller), async (dir, quota) => {
        const files = await rerunSource(memory.dirOf(source.id), dir, params.pool_size);
        reread = files.reread;
        quota.add(files.bytes);
        return {
          // what the folder may take once done: the linked (or copied) files, a read's own files
          // when the rows are read again, and the results at their largest (ADR 019)
          reserved:
            (files.reread ? readBytesBound(files.bytes, files.tickets) : files.bytes) +
            resultBytesBound({
              pool: params.pool_size,
              tickets: files.tickets,
              params,
              countsStored: files.countsLinked,
            }),
          fill: () => placeRerunFiles(dir, files),
          params,
          file: {
            originalName:
              source.originalName === null ? null : visibleFileName(source.originalName),
            bytes: source.fileBytes,
            // the upload the tickets come from, whichever rerun of it this one started from
            sourceSessionId: source.sourceSessionId ?? source.id,
          },
        };
      });
      const { id, row } = await started.catch(withRetryAfter(reply));
      await app.power7.audit.record(request, caller, 'power7.rerun', id, {
        sourceSessionId: source.id,
        reread,
      });
      return reply
        .status(202)
        .send(
          ok(
            queries.view(row),
            'The analysis of the stored tickets has started.',
            ErrorCode.ACCEPTED,
          ),
        );
    },
  );
}
