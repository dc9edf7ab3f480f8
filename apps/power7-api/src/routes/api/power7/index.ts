import type { FastifyInstance } from 'fastify';
import { filterRoutes } from './filter';
import { insightRoutes } from './insight';
import { sessionRoutes } from './sessions';
import { uploadRoutes } from './upload';
import { winnerRoutes } from './winners';

/** The Power 7 endpoints of the seed's table (docs/product/services.md §5). */
export async function power7Routes(app: FastifyInstance) {
  await app.register(uploadRoutes);
  await app.register(sessionRoutes);
  await app.register(filterRoutes);
  await app.register(insightRoutes);
  await app.register(winnerRoutes);
}
