import type { IncomingMessage } from 'node:http';
import { ERROR_CODES } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';

export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  const upgrade = req.headers.upgrade;
  return typeof upgrade === 'string' && upgrade.toLowerCase() === 'websocket';
}

/**
 * A router constraint that tells WebSocket upgrades from plain requests on the
 * same path: GET /sheets/abc is a react-router page (index.html), while an
 * upgrade on /sheets/abc is the api's live socket. Routes that declare
 * `constraints: { upgrade: 'websocket' }` get upgrades; an upgrade never
 * reaches an unconstrained route (mustMatchWhenDerived), and one that finds
 * no route gets a 404 (refuseStrayUpgrades) rather than the SPA page.
 */
export const upgradeConstraint = {
  name: 'upgrade',
  mustMatchWhenDerived: true,
  storage<T>() {
    const handlers = new Map<string, T>();
    return {
      get: (value: string): T | null => handlers.get(value) ?? null,
      set: (value: string, store: T) => {
        handlers.set(value, store);
      },
    };
  },
  deriveConstraint(req: IncomingMessage): string {
    // find-my-way reads undefined as "not derived", although its types say string.
    return (isWebSocketUpgrade(req) ? 'websocket' : undefined) as string;
  },
  validate(value: unknown) {
    if (value !== 'websocket') throw new Error('the upgrade constraint only takes "websocket"');
  },
};

export const WEBSOCKET_ONLY = { upgrade: 'websocket' } as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks the routes that take WebSocket upgrades (the api's live sockets). */
    socketProxy?: boolean;
  }
}

/**
 * An upgrade that lands on a page or file route (an unconstrained node of the
 * router) gets a 404 instead of index.html written to a socket.
 */
export function refuseStrayUpgrades(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (isWebSocketUpgrade(request.raw) && request.routeOptions.config?.socketProxy !== true) {
      return reply.code(404).send({ error: { code: ERROR_CODES.notFound, message: 'No WebSocket endpoint here' } });
    }
  });
}
