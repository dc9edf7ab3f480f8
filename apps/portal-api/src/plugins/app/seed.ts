import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { seed, type SeedResult } from '../../modules/companies/seed';

declare module 'fastify' {
  interface FastifyInstance {
    /** What seeding did at this start (server.ts prints the sign-in details from it). */
    seedResult: SeedResult;
  }
}

/**
 * Seeds the demo data on an empty database and brings every company's system permissions up to date
 * (modules/companies/seed.ts), before any route answers. Needs `app.db`.
 */
export const seedPlugin = fp(
  async function seedPlugin(app: FastifyInstance) {
    app.decorate('seedResult', await seed(app.db, app.config.DEMO_ADMIN_PASSWORD));
  },
  { name: 'portal-seed', dependencies: ['portal-db'] },
);
