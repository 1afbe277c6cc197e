import { json, startLoopbackServer as startServer } from '@tessera/jest-react/loopback';
import type { IncomingMessage } from 'node:http';

export interface Reply {
  status?: number;
  body?: unknown;
  /** Holds the reply until this promise settles (to observe in-flight states). */
  hold?: Promise<unknown>;
}

export type Route = (req: IncomingMessage, body: string) => Reply | Promise<Reply>;

export interface LoopbackServer {
  url: string;
  /** Requests seen, as 'METHOD /path'. */
  readonly calls: string[];
  close(): Promise<void>;
}

/**
 * The services as a table of routes ('METHOD /path' → reply), on tooling/jest-react's loopback
 * server, so the shell's real axios clients are exercised (jsdom's XHR does the requests, CORS
 * included: the test page's origin is http://localhost).
 */
export async function startLoopbackServer(routes: Record<string, Route>): Promise<LoopbackServer> {
  const server = await startServer(async (req, res) => {
    const key = `${req.method} ${req.path}`;
    const route = routes[key];
    if (!route) return false;
    const reply = await route(req.incoming, req.text);
    if (reply.hold) await reply.hold.catch(() => undefined);
    json(res, reply.status ?? 200, reply.body);
  });
  return {
    url: server.url,
    get calls() {
      return server.calls();
    },
    close: server.close,
  };
}

/** An unsigned JWT with the claims the client reads (the client never verifies signatures). */
export function fakeToken(claims: { sub?: string; username?: string; role?: string; expInS?: number } = {}): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const { sub = 'u1', username = 'alice', role = 'admin', expInS = 900 } = claims;
  return `${enc({ alg: 'EdDSA' })}.${enc({ sub, username, role, exp: Math.floor(Date.now() / 1000) + expInS, jti: Math.random() })}.sig`;
}

/** A promise and the function that settles it. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
