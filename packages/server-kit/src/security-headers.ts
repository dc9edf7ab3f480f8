import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for these options, computed once. They do not depend on the request (no CSP
 * nonces), so every answer gets the same object; @fastify/helmet instead rebuilds helmet — and
 * re-parses the Content-Security-Policy — on every request, about a sixth of a cached `verify`'s CPU
 * time (apps/portal-api/bench/portal.bench.ts).
 */
export function securityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as never, response as never, (error?: unknown) => {
    failed = error;
  });
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}

/** Security headers (helmet) on every answer, including errors and the web app's files. */
export const securityHeadersPlugin = fp<HelmetOptions>(
  async function securityHeadersPlugin(app: FastifyInstance, options: HelmetOptions) {
    const headers = securityHeaders(options);
    app.addHook('onRequest', (_request, reply, done) => {
      void reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
