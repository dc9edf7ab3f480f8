import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { notFound } from './errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's own Prometheus registry (tests build several apps in one process). */
    metrics: Registry;
  }
}

export interface MetricsOptions {
  /** `METRICS`: whether `GET /metrics` answers (the metrics are kept either way; cheap). */
  enabled: boolean;
  /** The `service` label on every series (portal-api, power7-api). */
  service: string;
}

/** Label of requests no route matched: the raw URL would make one series per path a client tries. */
const UNMATCHED = 'unmatched';

/**
 * Prometheus metrics of one app: process defaults, request durations by route pattern and status,
 * rate-limit refusals; the apps add their own to `app.metrics`. `GET /metrics` answers on the
 * service's own port (keep it private behind the proxy: docs/operations.md).
 */
export const metricsPlugin = fp<MetricsOptions>(
  async function metricsPlugin(app: FastifyInstance, options: MetricsOptions) {
    const registry = new Registry();
    registry.setDefaultLabels({ service: options.service });
    collectDefaultMetrics({ register: registry });
    app.decorate('metrics', registry);

    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    const refused = new Counter({
      name: 'http_rate_limit_refusals_total',
      help: 'Requests refused with 429 (a rate limit), by route pattern.',
      labelNames: ['route'],
      registers: [registry],
    });
    app.addHook('onResponse', (request, reply, done) => {
      // the pattern (`/api/power7/sessions/:id/`), never the URL with its ids
      const route = request.routeOptions.url ?? UNMATCHED;
      duration.observe(
        { method: request.method, route, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      if (reply.statusCode === 429) refused.inc({ route });
      done();
    });

    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      // off: the envelope's 404, as for any unknown path (the portal would otherwise serve its web app)
      if (!options.enabled) throw notFound('The metrics page');
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'metrics' },
);
