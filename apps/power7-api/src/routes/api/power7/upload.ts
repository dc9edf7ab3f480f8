import type { FastifyInstance } from 'fastify';
import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { sessionSchema, uploadFormSchema } from '@pa/contracts/power7';
import { documentationOnly, errorAnswers } from '@pa/server-kit/openapi';
import { requirePermission } from '../../../plugins/external/auth';
import { startUploadedSession } from '../../../modules/sessions/upload-session';
import { bearer, owner, withRetryAfter } from './common';

/** The multipart form as documented: the file, then the form fields as text (read by `receiveUpload`). */
const uploadBody = z.object({
  customer_file: z
    .file()
    .describe('The customer file: CSV or XLSX, at most UPLOAD_MAX_BYTES (413 beyond)'),
  ...uploadFormSchema.in.shape,
});

/** `POST /api/upload/`: the customer file and the analysis parameters; starts the session's job. */
export async function uploadRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = app.power7.sessions;

  r.post(
    '/api/upload/',
    {
      // the handler reads the multipart stream itself (receiveUpload); `body` documents it
      validatorCompiler: documentationOnly,
      schema: {
        tags: ['power7'],
        summary:
          'Upload a customer file (multipart: customer_file, budget_type, budget | budget_min + budget_max, payout_3..payout_7, pool_size?) and start its analysis',
        description:
          'Fields: `budget_type` `fixed` (with `budget`) or `range` (with `budget_min` ≤ `budget_max`); `payout_3`..`payout_7` amounts ≥ 0 with at most two decimals, one > 0; `pool_size` 8..49 (default 35). A bad field answers 400 naming it.',
        consumes: ['multipart/form-data'],
        body: uploadBody,
        security: bearer,
        response: {
          202: envelopeSchema(sessionSchema),
          ...errorAnswers({
            413: "The file is larger than UPLOAD_MAX_BYTES, or the storage quota is used up: the user's sessions, with what their queued and running analyses may still write, leave no room for this file and its results at their largest",
            429: 'The user already has JOBS_PER_USER analyses queued or running (see Retry-After)',
          }),
        },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const { id, row } = await startUploadedSession(app.power7, request, owner(caller)).catch(
        withRetryAfter(reply),
      );
      await app.power7.audit.record(request, caller, 'power7.upload', id, {
        originalName: row.originalName,
        bytes: row.fileBytes,
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
}
