import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';

/**
 * Sign-ins by outcome (`portal_sign_ins_total`): success, failure (any refusal but 429), rate_limited.
 * Register after the metrics plugin (`app.metrics`).
 */
export const signInMetrics = fp(
  async function signInMetrics(app: FastifyInstance) {
    const signIns = new Counter({
      name: 'portal_sign_ins_total',
      help: 'Sign-in attempts by outcome: success, failure, rate_limited.',
      labelNames: ['outcome'],
      registers: [app.metrics],
    });
    for (const outcome of ['success', 'failure', 'rate_limited']) signIns.inc({ outcome }, 0);
    app.addHook('onResponse', (request, reply, done) => {
      if (request.routeOptions.url === '/api/accounts/sign-in' && request.method === 'POST') {
        const status = reply.statusCode;
        signIns.inc({
          outcome: status < 300 ? 'success' : status === 429 ? 'rate_limited' : 'failure',
        });
      }
      done();
    });
  },
  { name: 'portal-sign-in-metrics' },
);
