import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openAdminChannel } from '@pa/server-kit/admin-channel';
import type { PortalConfig } from '../../config';
import type { OpenDatabase, PortalDb } from '../../db/client';
import { portalChannelRoutes } from '../../modules/admin/channel';

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal's database (Drizzle over PGlite or PostgreSQL). */
    db: PortalDb;
  }
}

export interface DbPluginOptions {
  config: PortalConfig;
  database: OpenDatabase;
  /** True when the app opened the database itself: it closes it, and answers the admin command. */
  owned: boolean;
}

/**
 * The opened database as `app.db`, closed with the app when the app opened it. On its own PGlite
 * folder the portal also answers the admin command (backups, create-company) locally, since only one
 * process may open that folder.
 */
export const dbPlugin = fp<DbPluginOptions>(
  async function dbPlugin(app: FastifyInstance, { config, database, owned }) {
    app.decorate('db', database.db);
    app.addHook('onClose', async () => {
      if (owned) await database.close();
    });
    if (!owned || !database.dump) return;
    let closeChannel: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      closeChannel = await openAdminChannel(
        config.DATA_DIR,
        'portal',
        portalChannelRoutes(database),
        app.log,
      );
    });
    app.addHook('preClose', async () => {
      await closeChannel?.();
    });
  },
  { name: 'portal-db' },
);
