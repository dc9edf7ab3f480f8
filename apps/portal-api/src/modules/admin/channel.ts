import type { FastifyInstance } from 'fastify';
import type { OpenDatabase } from '../../db/client';
import { createCompany, type NewCompany } from '../companies/create-company';

/**
 * What the admin command asks a running portal (on PGlite it alone may open the folder): a dump of
 * its database for a backup, and `create-company` (the command checks the arguments and hashes the
 * password; the answer is createCompany's, so the messages stay the same).
 */
export function portalChannelRoutes(database: OpenDatabase) {
  return (channel: FastifyInstance) => {
    channel.post('/backup/database', async (_request, reply) => {
      const dump = await database.dump!();
      return reply.type('application/gzip').send(Buffer.from(await dump.arrayBuffer()));
    });
    channel.post<{ Body: NewCompany }>('/companies', async (request, reply) => {
      try {
        return await createCompany(database.db, request.body);
      } catch (error) {
        // a user name or email already taken: the same message the command prints when it runs alone
        return reply.status(409).send({ message: (error as Error).message });
      }
    });
  };
}
