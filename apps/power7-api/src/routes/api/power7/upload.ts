import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { sessionSchema, uploadFormSchema } from '@pa/contracts/power7';
import { documentationOnly } from '@pa/server-kit/openapi';
import { requirePermission } from '../../../plugins/external/auth';
import { UPLOAD_FILE } from '../../../modules/sessions/memory';
import { receiveUpload } from '../../../modules/sessions/upload';
import { bearer, owner } from './common';

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
  const { jobs, queries } = app.power7.sessions;

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
        response: { 202: envelopeSchema(sessionSchema) },
      },
    },
    async (request, reply) => {
      const caller = requirePermission(request, POWER7_PERMISSIONS.run);
      const id = uuidv7();
      const dir = app.power7.sessions.memory.dirOf(id);
      const quota = await app.power7.quota.begin(owner(caller));
      let row;
      try {
        const upload = await receiveUpload(request, dir, UPLOAD_FILE, {
          ...app.power7.uploads,
          quota,
        });
        try {
          row = await jobs.start(id, owner(caller), upload.params, {
            originalName: upload.originalName,
            bytes: upload.bytes,
            timings: { uploadMs: upload.uploadMs },
            arrived: upload.arrived,
          });
        } catch (error) {
          // not recorded: its file must not stay on disk, unseen by the list and by clear-all
          upload.arrived?.read.abort();
          await rm(dir, { recursive: true, force: true });
          throw error;
        }
      } finally {
        quota.end();
      }
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
