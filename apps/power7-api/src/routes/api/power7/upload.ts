import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { POWER7_PERMISSIONS } from '@pa/contracts/permission-codes';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { v7 as uuidv7 } from 'uuid';
import { envelopeSchema, ok } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { sessionSchema } from '@pa/contracts/power7';
import { requirePermission } from '../../../plugins/external/auth';
import { UPLOAD_FILE } from '../../../sessions/memory';
import { receiveUpload } from '../../../sessions/upload';
import { bearer, owner } from './common';

/** `POST /api/upload/`: the customer file and the analysis parameters; starts the session's job. */
export async function uploadRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { jobs, queries } = app.power7.sessions;

  r.post(
    '/api/upload/',
    {
      schema: {
        tags: ['power7'],
        summary:
          'Upload a customer file (multipart: customer_file, budget_type, budget | budget_min + budget_max, payout_3..payout_7, pool_size?) and start its analysis',
        consumes: ['multipart/form-data'],
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
