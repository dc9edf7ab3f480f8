import type { PermissionCode } from '@pa/contracts/permission-codes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok as envelope } from '@pa/contracts/envelope';
import { permissionSchema } from '@pa/contracts/permissions';
import { roleSchema } from '@pa/contracts/roles';
import { restorePermission, restoreRole } from '../../modules/access-restore/access-restore';
import { auditFrom } from '../../modules/audit/record';
import { authOf } from '../../plugins/app/auth';
import { crudErrors, idParams, ok } from './admin-schemas';

/**
 * Undo after deleting a role or a permission, within ACCESS_RESTORE_WINDOW_SECONDS
 * (docs/decisions/014-restore-roles-and-permissions.md). Restoring is creating again, so it asks for
 * the resource's create permission.
 */
export async function registerAccessRestoreRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const guard = (code: PermissionCode) => ({
    onRequest: app.requirePermission(code),
  });
  const security = [{ bearerAuth: [] }];

  app.post(
    '/api/roles/:id/restore',
    {
      ...guard('roles.create'),
      schema: {
        tags: ['roles'],
        security,
        summary:
          'Undo a role’s delete within the restore window: same id, its permissions and holders back',
        params: idParams,
        response: { 200: ok(roleSchema), ...crudErrors },
      },
    },
    async (request) =>
      envelope(
        await restoreRole(app.db, authOf(request), request.params.id, auditFrom(request)),
        'The role was restored.',
      ),
  );

  app.post(
    '/api/permissions/:id/restore',
    {
      ...guard('permissions.create'),
      schema: {
        tags: ['permissions'],
        security,
        summary:
          'Undo a permission’s delete within the restore window: same id, back in its roles and users',
        params: idParams,
        response: { 200: ok(permissionSchema), ...crudErrors },
      },
    },
    async (request) =>
      envelope(
        await restorePermission(app.db, authOf(request), request.params.id, auditFrom(request)),
        'The permission was restored.',
      ),
  );
}

/** Until when a role or permission deleted now can be restored. */
export function restorableUntil(app: FastifyInstance) {
  return new Date(Date.now() + app.config.ACCESS_RESTORE_WINDOW_SECONDS * 1000);
}
