import type { FastifyInstance } from 'fastify';
import { foldBracketKeys } from '../../modules/lists/list-sql';
import { registerAccessRestoreRoutes } from './access-restore';
import { registerAuditRoutes } from './audit-events/index';
import { registerPermissionRoutes } from './permissions/index';
import { registerRoleRoutes } from './roles/index';
import { registerSecurityRoutes } from './security/index';
import { registerUserBulkRoutes } from './users/bulk';
import { registerUserRoutes } from './users/index';
import { registerInvitationRoutes } from './users/invitations';
import { registerUserPasswordResetRoute } from './users/password-reset';
import { registerUserSignInRoutes } from './users/revoke-sign-ins';

/** Registers the company administration resources (users, roles, permissions, audit events). */
export async function registerAdminRoutes(app: FastifyInstance) {
  // Every administration route needs a signed-in caller, checked once here before anything else
  // (401 in the envelope); each route then names the permission it needs (`app.requirePermission`).
  app.addHook('onRequest', app.authenticate);
  // The list protocol sends `filters[field]=value`; the default query-string parser keeps that as a
  // flat key. Fold it into `{ filters: { field } }` before the route schemas validate it. This
  // plugin is encapsulated, so the hook only touches these routes.
  app.addHook('preValidation', async (request) => {
    request.query = foldBracketKeys(request.query);
  });
  await app.register(registerUserRoutes);
  await app.register(registerUserBulkRoutes);
  await app.register(registerUserSignInRoutes);
  await app.register(registerInvitationRoutes);
  await app.register(registerUserPasswordResetRoute);
  await app.register(registerRoleRoutes);
  await app.register(registerPermissionRoutes);
  await app.register(registerAccessRestoreRoutes);
  await app.register(registerAuditRoutes);
  await app.register(registerSecurityRoutes);
}
