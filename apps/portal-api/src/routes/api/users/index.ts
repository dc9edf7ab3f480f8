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
import { deleteUser } from '../../../modules/users/restore';
import { updateUser } from '../../../modules/users/update';
import { createUser, getUser, listUsers } from '../../../modules/users/users';
import { authOf } from '../../../plugins/app/auth';
import { deletedUserSchema } from '@pa/contracts/users-bulk';
import { adminRoute, crudErrors, idParams, ok } from '../admin-schemas';
import { mailEmailChangeNotice } from '../accounts/account-mail';

const listQuery = listQuerySchema(USER_SORT_FIELDS).extend({
  filters: userFiltersSchema.optional(),
});

/** `/api/users`: the company's users (docs/product/services.md §4). */
export async function registerUserRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const route = adminRoute(app, 'users');

  app.get(
    '/api/users/statuses',
    route('users.read', {
      summary: 'The user status list',
      response: { 200: ok(z.object({ items: z.array(userStatusItemSchema) })), ...crudErrors },
    }),
    async () => envelope({ items: USER_STATUS_LIST }),
  );

  app.get(
    '/api/users',
    route('users.read', {
      summary: 'List the company’s users (search: user name, names, email, phone)',
      querystring: listQuery,
      response: { 200: ok(paginatedSchema(userSchema)), ...crudErrors },
    }),
    async (request) => envelope(await listUsers(app.db, authOf(request).companyId, request.query)),
  );

  app.get(
    '/api/users/:id',
    route('users.read', {
      summary: 'Read one user',
      params: idParams,
      response: { 200: ok(userSchema), ...crudErrors },
    }),
    async (request) =>
      envelope(await getUser(app.db, authOf(request).companyId, request.params.id)),
  );

  app.post(
    '/api/users',
    route('users.create', {
      summary: 'Create a user (only with roles and permissions you hold yourself)',
      body: createUserSchema,
      response: { 201: ok(userSchema), ...crudErrors },
    }),
    async (request, reply) => {
      const user = await createUser(app.db, authOf(request), request.body, auditFrom(request));
      reply.code(201);
      return envelope(user, 'The user was created.', ErrorCode.CREATED);
    },
  );

  app.patch(
    '/api/users/:id',
    route('users.update', {
      summary: 'Edit a user; `version` is the one the edit was based on (stale → 409)',
      description:
        'Your own email is not changed here (403 FORBIDDEN naming `PATCH /api/accounts/me`, which asks for the current password). Changing another user’s email mails their old address a notice with a single-use undo link, holds that address for the undo window (EMAIL_CHANGE_UNDO_TTL) and ends every sign-in of the user. An address that cannot be used answers 409 without saying why, unless a user of your company has it.',
      params: idParams,
      body: updateUserSchema,
      response: { 200: ok(userSchema), ...crudErrors },
    }),
    async (request) => {
      const { user, emailChanged } = await updateUser(
        app.db,
        authOf(request),
        request.params.id,
        request.body,
        auditFrom(request),
        { undoTtlMs: app.config.EMAIL_CHANGE_UNDO_TTL * 1000 },
      );
      if (emailChanged)
        app.runInBackground(mailEmailChangeNotice(app, emailChanged), 'email change notice');
      return envelope(
        user,
        emailChanged
          ? `The user was updated. A notice with a link to undo the change went to ${emailChanged.oldEmail}; their sign-ins were ended.`
          : 'The user was updated.',
      );
    },
  );

  app.delete(
    '/api/users/:id',
    route('users.delete', {
      summary:
        'Delete a user (never yourself); ends all their sign-ins. Restorable until `restorableUntil`',
      params: idParams,
      response: { 200: ok(deletedUserSchema), ...crudErrors },
    }),
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
