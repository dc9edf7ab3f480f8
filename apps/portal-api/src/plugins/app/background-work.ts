import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs work after the answer went out (e.g. mail); failures are logged, close() waits for it. */
    runInBackground(work: Promise<unknown>, what: string): void;
  }
}

/** `app.runInBackground`: work that must not delay the answer, still finished before the app closes. */
export const backgroundWorkPlugin = fp(
  async function backgroundWorkPlugin(app: FastifyInstance) {
    const background = new Set<Promise<unknown>>();
    app.decorate('runInBackground', (work: Promise<unknown>, what: string) => {
      const tracked = work
        .catch((error: unknown) => app.log.error({ err: error }, `${what} failed`))
        .finally(() => background.delete(tracked));
      background.add(tracked);
    });
    // Before the database closes (onClose): background work writes to it (audit, mail_outbox).
    app.addHook('preClose', async () => {
      await Promise.all(background);
    });
  },
  { name: 'portal-background-work' },
);
