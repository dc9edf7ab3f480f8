import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { listQuerySchema } from '@pa/contracts/list-query';
import { userFiltersSchema, userSchema, USER_SORT_FIELDS } from '@pa/contracts/users';
import {
  bulkUserAnswerSchema,
  bulkUserChangeSchema,
  importAnswerSchema,
  userIdsAnswerSchema,
  userImportBodySchema,
  userImportQuerySchema,
} from '@pa/contracts/users-bulk';
import { auditFrom } from '../../../modules/audit/record';
import { bulkUpdateUsers, matchingUserIds } from '../../../modules/users/bulk';
import { importUsers } from '../../../modules/users/import';
import { restoreUser } from '../../../modules/users/restore';
import { authOf } from '../../../plugins/app/auth';
import { adminRoute, crudErrors, idParams, ok } from '../admin-schemas';

const idsQuery = listQuerySchema(USER_SORT_FIELDS)
  .pick({ search: true })
  .extend({ filters: userFiltersSchema.optional() });

/**
 * Many users at once: "select all N matching", bulk status and role changes, restoring a deleted
 * user and the CSV import (docs/reference/bulk-import-palette.md).
 */
export async function registerUserBulkRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const route = adminRoute(app, 'users');

  app.get(
    '/api/users/ids',
    route('users.read', {
      summary: 'Ids of every user a list search and filters match (at most 1000)',
      querystring: idsQuery,
      response: { 200: ok(userIdsAnswerSchema), ...crudErrors },
    }),
    async (request) =>
      envelope(await matchingUserIds(app.db, authOf(request).companyId, request.query)),
  );

  app.patch(
    '/api/users/bulk',
    route('users.update', {
      summary: 'Change the status or add/remove roles of many users; an outcome per id',
      description:
        'Each user goes through the single edit’s rules; refused users are reported in `results` with the reason, the others are changed.',
      body: bulkUserChangeSchema,
      response: { 200: ok(bulkUserAnswerSchema), ...crudErrors },
    }),
    async (request) => {
      const answer = await bulkUpdateUsers(
        app.db,
        authOf(request),
        request.body,
        auditFrom(request),
      );
      const message =
        answer.failed === 0
          ? `${answer.succeeded} user(s) updated.`
          : `${answer.succeeded} user(s) updated, ${answer.failed} could not be changed.`;
      return envelope(answer, message);
    },
  );

  app.post(
    '/api/users/:id/restore',
    route('users.delete', {
      summary: 'Undo a user’s delete within the restore window (USER_RESTORE_WINDOW_SECONDS)',
      params: idParams,
      response: { 200: ok(userSchema), ...crudErrors },
    }),
    async (request) =>
      envelope(
        await restoreUser(app.db, authOf(request), request.params.id, auditFrom(request)),
        'The user was restored.',
      ),
  );

  app.post(
    '/api/users/import',
    route('users.create', {
      summary: 'Import users from CSV: `dryRun=true` (default) checks, `dryRun=false` creates',
      querystring: userImportQuerySchema,
      body: userImportBodySchema,
      response: { 200: ok(importAnswerSchema), 201: ok(importAnswerSchema), ...crudErrors },
    }),
    async (request, reply) => {
      const dryRun = request.query.dryRun === 'true';
      const answer = await importUsers(
        app.db,
        authOf(request),
        request.body.csv,
        dryRun,
        auditFrom(request),
      );
      if (dryRun)
        return envelope(
          answer,
          `${answer.valid} row(s) can be imported, ${answer.invalid} cannot.`,
        );
      reply.code(answer.created > 0 ? 201 : 200);
      return envelope(
        answer,
        `${answer.created} user(s) created, ${answer.invalid} row(s) not imported.`,
        answer.created > 0 ? ErrorCode.CREATED : ErrorCode.OK,
      );
    },
  );
}
