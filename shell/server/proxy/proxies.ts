import httpProxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import { liveTokenFromProtocols } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { WEBSOCKET_ONLY } from './upgrade-constraint.js';

export interface ProxyTargets {
  apiUrl: string;
  aiUrl: string;
}

function replyOptions(service: string): FastifyHttpProxyOptions['replyOptions'] {
  return {
    // An upstream 503 (an unhealthy /health) must reach the client as is; reply-from
    // would otherwise retry GETs on 503 up to ten times.
    retryDelay: () => null,
    onError(reply, { error }) {
      const timeout = (error as { statusCode?: number }).statusCode === 504;
      reply.log.warn({ err: error, service }, 'upstream request failed');
      void reply.code(timeout ? 504 : 502).send({
        error: {
          code: timeout ? 'upstream_timeout' : 'upstream_unavailable',
          message: `The ${service} is not reachable`,
        },
      });
    },
    // The upstream sees the browser's scheme and host (e.g. to decide on Secure cookies),
    // and logs under this request's id.
    rewriteRequestHeaders(request, headers) {
      const prior = request.headers['x-forwarded-for'];
      return {
        ...headers,
        'x-request-id': request.id,
        'x-forwarded-for': prior ? `${String(prior)}, ${request.ip}` : request.ip,
        'x-forwarded-proto': request.protocol,
        'x-forwarded-host': request.headers.host ?? '',
      };
    },
  };
}

/**
 * One origin for the browser (DESIGN.md § Origins and ports): /api/v1/*, /health
 * and the live sockets go to the api, /ai/* to the ai-middleware without its prefix.
 */
export async function registerProxies(app: FastifyInstance, { apiUrl, aiUrl }: ProxyTargets): Promise<void> {
  await app.register(httpProxy, {
    upstream: apiUrl,
    prefix: '/api/v1',
    rewritePrefix: '/api/v1',
    replyOptions: replyOptions('api'),
  });
  await app.register(httpProxy, {
    upstream: apiUrl,
    prefix: '/health',
    rewritePrefix: '/health',
    httpMethods: ['GET', 'HEAD'],
    replyOptions: replyOptions('api'),
  });
  await app.register(httpProxy, {
    upstream: aiUrl,
    prefix: '/ai',
    // An empty rewrite prefix strips /ai: /ai/config -> AI_URL/config.
    rewritePrefix: '',
    replyOptions: replyOptions('ai-middleware'),
  });
  // Sockets only: plain GETs of /sheets/* are react-router pages (see upgrade-constraint.ts).
  for (const prefix of ['/sheets', '/live']) {
    await app.register(httpProxy, {
      upstream: apiUrl,
      prefix,
      rewritePrefix: prefix,
      websocket: true,
      httpMethods: ['GET'],
      constraints: WEBSOCKET_ONLY,
      config: { socketProxy: true },
      // The proxy offers the api only the subprotocol it selected ('tessera.bearer'), not the
      // token beside it: a token given that way travels on as `?token=` (never logged: redacted).
      wsClientOptions: {
        queryString: (search: string | undefined, _url: string, request: { headers: Record<string, unknown> }) => {
          const query = new URLSearchParams(search ?? '');
          const offered = request.headers['sec-websocket-protocol'];
          const token = liveTokenFromProtocols(typeof offered === 'string' ? offered : undefined);
          if (token && !query.has('token')) query.set('token', token);
          return query.toString();
        },
      },
      replyOptions: replyOptions('api'),
    });
  }
}
