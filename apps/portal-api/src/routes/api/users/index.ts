import type { PermissionCode } from '@pa/contracts/permission-codes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { listQuerySchema, paginatedSchema } from '@pa/contracts/list-query';
import {
  createUserSchema,
  updateUserSchema,
  USER_SORT_FIELDS,
  USER_STATUS_LIST,
  userFiltersSchema,
  userSchema,
  userStatusItemSchema,
} from '@pa/contracts/users';
import { auditFrom } from '../../../modules/audit/record';
import {
  createUser,
  deleteUser,
  getUser,
  listUsers,
  updateUser,
} from '../../../modules/users/users';
import { authOf } from '../../../plugins/app/auth';
import { deletedUserSchema } from '@pa/contracts/users-bulk';
import { crudErrors, idParams, ok } from '../admin-schemas';

const listQuery = listQuerySchema(USER_SORT_FIELDS).extend({
  filters: userFiltersSchema.optional(),
});

/** `/api/users`: the company's users (docs/product/services.md §4). */
export async function registerUserRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const guard = (code: PermissionCode) => ({
    onRequest: [app.authenticate, app.requirePermission(code)],
  });
  const tags = ['users'];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/api/users/statuses',
    {
      ...guard('users.read'),
      schema: {
        tags,
        security,
        summary: 'The user status list',
        response: { 200: ok(z.object({ items: z.array(userStatusItemSchema) })), ...crudErrors },
      },
    },
    async () => envelope({ items: USER_STATUS_LIST }),
  );

  app.get(
    '/api/users',
    {
      ...guard('users.read'),
      schema: {
        tags,
        security,
        summary: 'List the company’s users (search: user name, names, email, phone)',
        querystring: listQuery,
        response: { 200: ok(paginatedSchema(userSchema)), ...crudErrors },
      },
    },
    async (request) => envelope(await listUsers(app.db, authOf(request).companyId, request.query)),
  );

  app.get(
    '/api/users/:id',
    {
      ...guard('users.read'),
      schema: {
        tags,
        security,
        summary: 'Read one user',
        params: idParams,
        response: { 200: ok(userSchema), ...crudErrors },
      },
    },
    async (request) =>
      envelope(await getUser(app.db, authOf(request).companyId, request.params.id)),
  );

  app.post(
    '/api/users',
    {
      ...guard('users.create'),
      schema: {
        tags,
        security,
        summary: 'Create a user (only with roles and permissions you hold yourself)',
        body: createUserSchema,
        response: { 201: ok(userSchema), ...crudErrors },
      },
    },
    async (request, reply) => {
      const user = await createUser(app.db, authOf(request), request.body, auditFrom(request));
      reply.code(201);
      return envelope(user, 'The user was created.', ErrorCode.CREATED);
    },
  );

  app.patch(
    '/api/users/:id',
    {
      ...guard('users.update'),
      schema: {
        tags,
        security,
        summary: 'Edit a user; `version` is the one the edit was based on (stale → 409)',
        params: idParams,
        body: updateUserSchema,
        response: { 200: ok(userSchema), ...crudErrors },
      },
    },
    async (request) =>
      envelope(
        await updateUser(
          app.db,
          authOf(request),
          request.params.id,
          request.body,
          auditFrom(request),
        ),
        'The user was updated.',
      ),
  );

  app.delete(
    '/api/users/:id',
    {
      ...guard('users.delete'),
      schema: {
        tags,
        security,
        summary:
          'Delete a user (never yourself); ends all their sign-ins. Restorable until `restorableUntil`',
        params: idParams,
        response: { 200: ok(deletedUserSchema), ...crudErrors },
      },
    },
    async (request) => {
      const { restorableUntil } = await deleteUser(
        app.db,
        authOf(request),
        request.params.id,
        auditFrom(request),
        app.config.USER_RESTORE_WINDOW_SECONDS * 1000,
      );
      return envelope(
        { _id: request.params.id, restorableUntil: restorableUntil.toISOString() },
        'The user was deleted.',
      );
    },
  );
}
