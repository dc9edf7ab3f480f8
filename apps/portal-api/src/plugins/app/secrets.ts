import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SecretBox } from '../../modules/mfa/secret-box';
import { sealTotpSecrets } from '../../modules/mfa/totp';

declare module 'fastify' {
  interface FastifyInstance {
    /** Seals and opens the second-step secrets stored in the database (ADR 018). */
    secretBox: SecretBox;
  }
}

/**
 * The secrets key (`keys/secrets.key`, read with the signing key) as `app.secretBox`; before any route
 * answers, secrets still stored in the clear are sealed, and secrets sealed under another key (a
 * restore without `keys/`) are counted in the log. Needs `app.db`.
 */
export const secretsPlugin = fp<{ key: Buffer }>(
  async function secretsPlugin(app: FastifyInstance, { key }) {
    const box = new SecretBox(key);
    app.decorate('secretBox', box);
    const { sealed, unreadable } = await sealTotpSecrets(app.db, box);
    if (sealed > 0)
      app.log.info(
        { sealed },
        `Sealed ${sealed} authenticator-app secrets that were stored in the clear (keys/secrets.key)`,
      );
    if (unreadable > 0)
      app.log.warn(
        { unreadable, keyId: box.keyId },
        `${unreadable} authenticator-app secrets were sealed under another key than keys/secrets.key (a restore without the kept keys/?): ` +
          'those accounts count as having no app until they set one up again; put the kept keys/ back and restart to keep them',
      );
  },
  { name: 'portal-secrets', dependencies: ['portal-db'] },
);
