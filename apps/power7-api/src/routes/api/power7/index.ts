import type { FastifyInstance } from 'fastify';
import { authPlugin, type KeySource } from '../../../plugins/external/auth';
import type { EndedSignIns } from '../../../modules/revocation/ended-sign-ins';
import { bookRoutes } from './books';
import { exposureRoutes } from './exposure';
import { filterRoutes } from './filter';
import { insightRoutes } from './insight';
import { liabilityRoutes } from './liability';
import { rerunRoutes } from './rerun';
import { auditRoutes, sessionRoutes } from './sessions';
import { uploadRoutes } from './upload';
import { winnerRoutes } from './winners';

/**
 * The Power 7 endpoints of the seed's table (docs/product/services.md §5). Authentication is declared
 * here, once for the group: the auth plugin's hook refuses every request of these routes without a
 * valid bearer token (401), and each route names only the permission it needs (`requirePermission`).
 * The health and status routes sit outside this context and ignore credentials; test/route-auth.test.ts
 * walks every registered route to keep it so.
 */
export async function power7Routes(
  app: FastifyInstance,
  options: { keys: KeySource; ended: EndedSignIns },
) {
  await app.register(authPlugin, options);
  await app.register(uploadRoutes);
  await app.register(rerunRoutes);
  await app.register(sessionRoutes);
  await app.register(filterRoutes);
  await app.register(insightRoutes);
  await app.register(exposureRoutes);
  await app.register(liabilityRoutes);
  await app.register(bookRoutes);
  await app.register(winnerRoutes);
  await app.register(auditRoutes);
}
