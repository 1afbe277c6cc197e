import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * How often the event loop's delay is sampled (prom-client's nodejs_eventloop_lag_*), in ms.
 * prom-client's default, 10 ms, wakes the process 100 times a second: about 10 ms of CPU a second
 * on this 2-core machine with nothing to do, most of what an idle api cost (14-18 ms/s), and 0.1-0.2 ms
 * per operation of a sheet edited at 80 ops/s. What the histogram holds is the time between two
 * samples: an idle loop reads this interval (0.1 s; it read 0.01 s before), a stall of S reads as
 * about S (plus up to the interval). nodejs_eventloop_lag_seconds (measured at each scrape) is
 * unaffected.
 */
export const EVENT_LOOP_MONITORING_PRECISION_MS = 100;

/**
 * Prometheus `GET /metrics` of one service: process metrics, requests and their
 * durations by route pattern and status, and the sockets open on this instance.
 * The registry is the app's own (not prom-client's global one), so several apps can
 * live in one process (tests); a feature adds its metrics (live operations, solver
 * and code-runner durations) to the registry this returns.
 */
export function installHttpMetrics(app: FastifyInstance, service: string): Registry {
  const register = new Registry();
  register.setDefaultLabels({ service });
  collectDefaultMetrics({ register, eventLoopMonitoringPrecision: EVENT_LOOP_MONITORING_PRECISION_MS });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern and status',
    labelNames,
    registers: [register],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds, by route pattern and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [register],
  });

  // Keep-alive, streaming replies and WebSockets: what a load balancer spreads.
  let openSockets = 0;
  app.server.on('connection', (socket) => {
    openSockets++;
    socket.once('close', () => openSockets--);
  });
  new Gauge({
    name: 'http_open_sockets',
    help: 'TCP connections open on this instance (HTTP keep-alive, streams and WebSockets)',
    registers: [register],
    collect() {
      this.set(openSockets);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL, keeps the label set bounded.
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { config: { public: true } }, async (_request, reply) => {
    reply.header('content-type', register.contentType);
    return register.metrics();
  });
  return register;
}
