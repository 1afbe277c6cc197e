import type { IncomingMessage } from 'node:http';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { RemotesStore } from '../remotes/remotes-store.js';

const kRemoteOrigins = Symbol('tessera.remoteOrigins');
type RequestWithOrigins = IncomingMessage & { [kRemoteOrigins]?: string[] };

const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function origins(req: IncomingMessage): string {
  return ((req as RequestWithOrigins)[kRemoteOrigins] ?? []).join(' ');
}

/** The page's own live sockets (ws:/wss: of self), named explicitly for older browsers. */
function selfSockets(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return SAFE_HOST.test(host) ? `ws://${host} wss://${host}` : '';
}

/**
 * Remote origins come from the current remotes.json: an onRequest hook (added
 * before helmet's, so it runs first) stores them on the raw request and the
 * directive functions below read them.
 */
export function registerRemoteOriginsHook(app: FastifyInstance, store: RemotesStore): void {
  app.addHook('onRequest', async (request) => {
    const origins = await store.origins();
    // A page served over https loads nothing from http origins (the loader refuses such releases
    // too, with a reason): mixed content would let the network rewrite the remotes' code.
    (request.raw as RequestWithOrigins)[kRemoteOrigins] =
      request.protocol === 'https' ? origins.filter((o) => o.startsWith('https:')) : origins;
  });
}

export const helmetOptions: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    // Exactly these directives: helmet's defaults add upgrade-insecure-requests,
    // which would break http://localhost remotes.
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      // Remotes' remoteEntry and chunks load as scripts from their own origins.
      'script-src': ["'self'", origins],
      // Emotion (Chakra) injects <style> tags; remotes may ship CSS files.
      'style-src': ["'self'", "'unsafe-inline'", origins],
      // Monaco starts its workers from blob: URLs.
      'worker-src': ["'self'", 'blob:'],
      // mf-manifest.json is fetched; the live sockets are same-host ws/wss.
      'connect-src': ["'self'", origins, selfSockets],
      'img-src': ["'self'", 'data:', 'blob:'],
      'font-src': ["'self'", 'data:', origins],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  // Remote scripts are cross-origin and the shell's own assets are same-origin: no COEP needed.
  crossOriginEmbedderPolicy: false,
};
