import type { FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';

/**
 * Structured logging options shared by both services: JSON lines with a request id, and secrets
 * (tokens, cookies, passwords) redacted wherever they appear.
 */
export function loggerOptions(
  level: string,
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader'> {
  return {
    logger:
      level === 'silent'
        ? false
        : {
            level,
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers.cookie',
                'res.headers["set-cookie"]',
                '*.password',
                '*.accessToken',
                '*.refreshToken',
                '*.token',
              ],
              censor: '[redacted]',
            },
          },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
  };
}
