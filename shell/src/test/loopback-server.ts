import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  calls: string[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for the services, so the shell's
 * real axios clients are exercised (jsdom's XHR does the requests, CORS included:
 * the test page's origin is http://localhost).
 */
export async function startLoopbackServer(routes: Record<string, Route>): Promise<LoopbackServer> {
  const calls: string[] = [];
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('access-control-allow-origin', req.headers.origin ?? 'http://localhost');
    res.setHeader('access-control-allow-credentials', 'true');
    res.setHeader('access-control-allow-headers', 'authorization, content-type');
    res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', async () => {
      const path = (req.url ?? '/').split('?')[0];
      const key = `${req.method} ${path}`;
      calls.push(key);
      const route = routes[key];
      const reply: Reply = route
        ? await route(req, body)
        : { status: 404, body: { error: { code: 'not_found', message: `no route ${key}` } } };
      if (reply.hold) await reply.hold.catch(() => undefined);
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
