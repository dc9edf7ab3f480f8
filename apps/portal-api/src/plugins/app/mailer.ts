import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../../modules/mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** `app.mailer`: SMTP with SMTP_URL, else the outbox folder (modules/mail/mailer.ts). Needs `app.db`. */
export const mailerPlugin = fp(
  async function mailerPlugin(app: FastifyInstance) {
    app.decorate('mailer', createMailer(app.db, app.config, app.log));
  },
  { name: 'portal-mailer', dependencies: ['portal-db'] },
);
