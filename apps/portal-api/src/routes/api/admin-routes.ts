import type { FastifyInstance } from 'fastify';

/** Registers the company administration resources (users, roles, permissions, audit events). */
export async function registerAdminRoutes(_app: FastifyInstance) {
  // Filled in by the resources work (issue #4).
}
