import httpProxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import { liveTokenFromProtocols } from '@tessera/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
    // The upstream sees the browser's address, scheme and host (sign-in throttling, Secure
    // cookies), and logs under this request's id.
    rewriteRequestHeaders: (request, headers) => ({ ...headers, 'x-request-id': request.id, ...forwardedHeaders(request) }),
  };
}

/**
 * X-Forwarded-* as this server vouches for them: the client is request.ip — the peer, or the
 * address a proxy in SHELL_TRUST_PROXY names — and nothing else. An X-Forwarded-For the client wrote
 * itself is dropped, not passed on, so the api (which trusts this server) cannot be lied to.
 */
export function forwardedHeaders(request: Pick<FastifyRequest, 'ip' | 'protocol' | 'headers'>): Record<string, string> {
  return {
    'x-forwarded-for': request.ip,
    'x-forwarded-proto': request.protocol,
    'x-forwarded-host': request.headers.host ?? '',
  };
}

/**
 * The api's sockets see the same client address and scheme as its HTTP routes. (The proxy calls
 * this for upgrades in place of its default, which passes the cookie on; its types omit it.)
 */
const wsForwarding = {
  rewriteRequestHeaders: (headers: Record<string, unknown>, request: FastifyRequest) => ({
    ...headers,
    ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
    'x-request-id': request.id,
    ...forwardedHeaders(request),
  }),
};

/**
 * One origin for the browser (DESIGN.md § Origins and ports): /api/v1/*, /health, the API
 * reference (/api/docs) and the live sockets go to the api, /ai/* to the ai-middleware without
 * its prefix.
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
  // The API reference page and its assets (issue 21), read-only.
  await app.register(httpProxy, {
    upstream: apiUrl,
    prefix: '/api/docs',
    rewritePrefix: '/api/docs',
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
        ...wsForwarding,
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
