import type { FastifyInstance } from 'fastify';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics on a registry of this app instance (not prom-client's
 * global one), so several apps in one process (tests) do not collide.
 * Solver and code-runner durations arrive with those features and register here.
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
  // Sockets open on this instance (keep-alive and streaming replies).
  let openSockets = 0;
  app.server.on('connection', (socket) => {
    openSockets++;
    socket.once('close', () => openSockets--);
  });
  new Gauge({
    name: 'http_open_sockets',
    help: 'TCP connections open on this instance',
    registers: [registry],
    collect() {
      this.set(openSockets);
    },
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
