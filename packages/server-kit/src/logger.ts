import type { FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';

const PRETTY = {
  target: 'pino-pretty',
  options: { singleLine: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
};

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
            // One compact coloured line per entry on a terminal; JSON lines everywhere else.
            ...(process.stdout.isTTY ? { transport: PRETTY } : {}),
          },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
  };
}
