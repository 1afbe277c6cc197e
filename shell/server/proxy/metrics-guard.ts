import { ERROR_CODES } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';

const METRICS = /^\/metrics\/?$/;

/**
 * The path a service would route `url` to, as the proxies forward it and the service's router
 * reads it: percent-decoded (again, for double encodings), backslashes as slashes, `;params`
 * dropped, dot segments resolved, repeated slashes collapsed, lower case.
 */
export function normalisedPath(url: string): string {
  let path = url.split(/[?#]/)[0];
  for (let i = 0; i < 3 && path.includes('%'); i++) {
    try {
      path = decodeURIComponent(path);
    } catch {
      break;
    }
  }
  path = path.replace(/\\/g, '/').replace(/;[^/]*/g, '');
  path = new URL(path.startsWith('/') ? path : `/${path}`, 'http://shell.invalid').pathname;
  return path.replace(/\/{2,}/g, '/').toLowerCase();
}

/**
 * True when `url` would reach a service's Prometheus /metrics through a proxy: directly
 * (/metrics, /health/../metrics → the api) or through /ai/*, whose prefix the proxy strips.
 */
export function reachesMetrics(url: string): boolean {
  const path = normalisedPath(url);
  return METRICS.test(path) || (path.startsWith('/ai/') && METRICS.test(path.slice(3)));
}

/**
 * The services' /metrics are for the monitoring network, not the public origin (issue 17 §6):
 * any request whose path would land on one of them answers 404 here, before any proxy or page
 * route (a plain GET /metrics would otherwise be the SPA's index.html).
 */
export function refuseMetrics(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (reachesMetrics(request.url)) {
      return reply.code(404).send({ error: { code: ERROR_CODES.notFound, message: 'Not found' } });
    }
  });
}
