import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';
import { listQuerySchema, paginatedSchema } from '@pa/contracts/list-query';
import {
  createPermissionSchema,
  PERMISSION_SORT_FIELDS,
  permissionFiltersSchema,
  permissionSchema,
  updatePermissionSchema,
} from '@pa/contracts/permissions';
import { keepPermissionForRestore } from '../../../modules/access-restore/access-restore';
import { auditFrom } from '../../../modules/audit/record';
import {
  createPermission,
  deletePermission,
  getPermission,
  listPermissions,
  updatePermission,
} from '../../../modules/permissions/permissions';
import { authOf } from '../../../plugins/app/auth';
import { restorableUntil } from '../access-restore';
import { adminRoute, crudErrors, idParams, ok, okEmpty } from '../admin-schemas';

const listQuery = listQuerySchema(PERMISSION_SORT_FIELDS).extend({
  filters: permissionFiltersSchema.optional(),
});

/** `/api/permissions`: the company's permissions, system and custom (docs/product/services.md §3–§4). */
export async function registerPermissionRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const route = adminRoute(app, 'permissions');

  app.get(
    '/api/permissions',
    route('permissions.read', {
      summary: 'List the company’s permissions (search: code, name, description, group)',
      querystring: listQuery,
      response: { 200: ok(paginatedSchema(permissionSchema)), ...crudErrors },
    }),
    async (request) =>
      envelope(await listPermissions(app.db, authOf(request).companyId, request.query)),
  );

  app.get(
    '/api/permissions/:id',
    route('permissions.read', {
      summary: 'Read one permission',
      params: idParams,
      response: { 200: ok(permissionSchema), ...crudErrors },
    }),
    async (request) =>
      envelope(await getPermission(app.db, authOf(request).companyId, request.params.id)),
  );

  app.post(
    '/api/permissions',
    route('permissions.create', {
      summary: 'Create a custom permission (the Administrator role receives it)',
      body: createPermissionSchema,
      response: { 201: ok(permissionSchema), ...crudErrors },
    }),
    async (request, reply) => {
      const created = await createPermission(
        app.db,
        authOf(request),
        request.body,
        auditFrom(request),
      );
      reply.code(201);
      return envelope(created, 'The permission was created.', ErrorCode.CREATED);
    },
  );

  app.patch(
    '/api/permissions/:id',
    route('permissions.update', {
      summary:
        'Edit a permission; `version` is the one the edit was based on (stale → 409). System permissions take only a description.',
      params: idParams,
      body: updatePermissionSchema,
      response: { 200: ok(permissionSchema), ...crudErrors },
    }),
    async (request) =>
      envelope(
        await updatePermission(
          app.db,
          authOf(request),
          request.params.id,
          request.body,
          auditFrom(request),
        ),
        'The permission was updated.',
      ),
  );

  app.delete(
    '/api/permissions/:id',
    route('permissions.delete', {
      summary:
        'Delete a custom permission no role or user holds; restorable for ACCESS_RESTORE_WINDOW_SECONDS',
      params: idParams,
      response: { 200: okEmpty, ...crudErrors },
    }),
    async (request) => {
      const actor = authOf(request);
      const until = restorableUntil(app);
      await deletePermission(app.db, actor, request.params.id, auditFrom(request), (tx) =>
        keepPermissionForRestore(tx, actor, request.params.id, until),
      );
      return envelope(null, 'The permission was deleted.');
    },
  );
}
