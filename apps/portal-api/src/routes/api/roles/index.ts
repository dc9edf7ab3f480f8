import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { listQuerySchema, paginatedSchema } from '@pa/contracts/list-query';
import {
  createRoleSchema,
  ROLE_SORT_FIELDS,
  roleFiltersSchema,
  roleSchema,
  updateRoleSchema,
} from '@pa/contracts/roles';
import { keepRoleForRestore } from '../../../modules/access-restore/access-restore';
import { auditFrom } from '../../../modules/audit/record';
import {
  createRole,
  deleteRole,
  getRole,
  listRoles,
  updateRole,
} from '../../../modules/roles/roles';
import { authOf } from '../../../plugins/app/auth';
import { restorableUntil } from '../access-restore';
import { adminRoute, crudErrors, idParams, ok, okEmpty } from '../admin-schemas';

const listQuery = listQuerySchema(ROLE_SORT_FIELDS).extend({
  filters: roleFiltersSchema.optional(),
});

/** `/api/roles`: the company's roles (docs/product/services.md §4). */
export async function registerRoleRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const route = adminRoute(app, 'roles');

  app.get(
    '/api/roles',
    route('roles.read', {
      summary: 'List the company’s roles (search: name, description)',
      querystring: listQuery,
      response: { 200: ok(paginatedSchema(roleSchema)), ...crudErrors },
    }),
    async (request) => envelope(await listRoles(app.db, authOf(request).companyId, request.query)),
  );

  app.get(
    '/api/roles/:id',
    route('roles.read', {
      summary: 'Read one role',
      params: idParams,
      response: { 200: ok(roleSchema), ...crudErrors },
    }),
    async (request) =>
      envelope(await getRole(app.db, authOf(request).companyId, request.params.id)),
  );

  app.post(
    '/api/roles',
    route('roles.create', {
      summary: 'Create a role (only with permissions you hold yourself)',
      body: createRoleSchema,
      response: { 201: ok(roleSchema), ...crudErrors },
    }),
    async (request, reply) => {
      const role = await createRole(app.db, authOf(request), request.body, auditFrom(request));
      reply.code(201);
      return envelope(role, 'The role was created.', ErrorCode.CREATED);
    },
  );

  app.patch(
    '/api/roles/:id',
    route('roles.update', {
      summary: 'Edit a role; `version` is the one the edit was based on (stale → 409)',
      params: idParams,
      body: updateRoleSchema,
      response: { 200: ok(roleSchema), ...crudErrors },
    }),
    async (request) =>
      envelope(
        await updateRole(
          app.db,
          authOf(request),
          request.params.id,
          request.body,
          auditFrom(request),
        ),
        'The role was updated.',
      ),
  );

  app.delete(
    '/api/roles/:id',
    route('roles.delete', {
      summary:
        'Delete a role nobody holds (never the Administrator role); restorable for ACCESS_RESTORE_WINDOW_SECONDS',
      params: idParams,
      response: { 200: okEmpty, ...crudErrors },
    }),
    async (request) => {
      const actor = authOf(request);
      const until = restorableUntil(app);
      await deleteRole(app.db, actor, request.params.id, auditFrom(request), (tx) =>
        keepRoleForRestore(tx, actor, request.params.id, until),
      );
      return envelope(null, 'The role was deleted.');
    },
  );
}
