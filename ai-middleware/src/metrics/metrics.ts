import type { FastifyInstance } from 'fastify';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics on a registry of this app instance (not prom-client's
 * global one), so several apps in one process (tests) do not collide.
 */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'ai-middleware' });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      // The route pattern, never the raw URL, keeps label cardinality bounded.
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { config: { public: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return registry;
}
