import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test support: a real HTTP server on loopback standing in for the ai-middleware and the api. */

export interface Request {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingMessage['headers'];
}

/** Answers a request; return false to let the server answer 404. */
export type Handler = (req: Request, res: ServerResponse) => boolean | void | Promise<boolean | void>;

export interface LoopbackServer {
  url: string;
  /** Every request, in order (method, path, query, parsed JSON body). */
  requests: Request[];
  /** `METHOD /path` of every request, in order. */
  calls(): string[];
  close(): Promise<void>;
}

const open = new Set<Server>();

export async function startServer(handler: Handler): Promise<LoopbackServer> {
  const requests: Request[] = [];
  const server = createServer((req, res) => {
    // The jsdom page is another origin: answer as a CORS-enabled service would.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,DELETE');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Authorization');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://loopback');
      const request: Request = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: raw ? JSON.parse(raw) : undefined,
        headers: req.headers,
      };
      requests.push(request);
      Promise.resolve(handler(request, res)).then(
        (taken) => {
          if (taken === false && !res.headersSent) json(res, 404, { error: { code: 'not_found', message: `No route ${request.method} ${request.path}` } });
        },
        (error: unknown) => json(res, 500, { error: { code: 'internal_error', message: String(error) } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.add(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    calls: () => requests.map((r) => `${r.method} ${r.path}`),
    close: () => closeServer(server),
  };
}

async function closeServer(server: Server): Promise<void> {
  if (!open.delete(server)) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Closes every server a test started (call from afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all([...open].map(closeServer));
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Opens a Server-Sent Events reply as the ai-middleware's HybridStream does. */
export function sse(res: ServerResponse) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
  return {
    send(event: unknown) {
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    end() {
      res.end();
    },
    /** Resolves when the client goes away (Stop). */
    closed: new Promise<void>((resolve) => res.on('close', () => resolve())),
  };
}
