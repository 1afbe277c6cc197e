/**
 * A real HTTP server on 127.0.0.1 standing in for a service (the api, the ai-middleware, a
 * remote's origin) in the front-end packages' tests, so their real axios clients are exercised
 * over real HTTP: jsdom's XHR does the requests, CORS included (the test page's origin is
 * http://localhost). One helper for every package; each package's test api builds its routes
 * on it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  /** The path and the query, as sent ('/api/v1/sheets?favorites=true'). */
  url: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The body as text ('' when there is none). */
  text: string;
  /** The body parsed when it is JSON, else its text; undefined when empty. */
  body: unknown;
  /** The node request, for what the fields above leave out. */
  incoming: IncomingMessage;
}

/**
 * Answers a request, now or later. Return false to let the server answer 404; a throw (or a
 * rejection) is answered 500 with its message.
 */
export type LoopbackHandler = (req: LoopbackRequest, res: ServerResponse) => boolean | void | Promise<boolean | void>;

export interface LoopbackServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The node server (to attach a WebSocket upgrade, for instance). */
  server: Server;
  /** Every request, in order, once its body has arrived. */
  requests: LoopbackRequest[];
  /** `METHOD /path` (no query) of every request, in order. */
  calls(): string[];
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /**
   * Answer as a CORS-enabled service on another origin does (default true): the page's origin
   * is allowed, with credentials, and preflights get 204 without reaching the handler.
   */
  cors?: boolean;
}

const open = new Set<Server>();

function allowCors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  if (req.headers.origin) res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type, Accept');
  res.setHeader('Access-Control-Expose-Headers', 'Content-Type, Content-Disposition, Retry-After');
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  if (contentType?.includes('json')) return JSON.parse(text);
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (a multipart upload, a CSV): the text itself.
    return text;
  }
}

export async function startLoopbackServer(handler: LoopbackHandler, options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const cors = options.cors ?? true;
  const requests: LoopbackRequest[] = [];
  const server = createServer((incoming, res) => {
    if (cors) {
      allowCors(incoming, res);
      if (incoming.method === 'OPTIONS') {
        res.writeHead(204).end();
        return;
      }
    }
    let text = '';
    incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://loopback');
      let request: LoopbackRequest;
      try {
        request = {
          method: incoming.method ?? 'GET',
          path: url.pathname,
          url: `${url.pathname}${url.search}`,
          query: url.searchParams,
          headers: incoming.headers,
          text,
          body: parseBody(text, incoming.headers['content-type']),
          incoming,
        };
      } catch (error) {
        return json(res, 400, { error: { code: 'validation_failed', message: `Malformed JSON: ${String(error)}` } });
      }
      requests.push(request);
      Promise.resolve()
        .then(() => handler(request, res))
        .then(
          (taken) => {
            if (taken === false && !res.headersSent) apiError(res, 404, 'not_found', `No route ${request.method} ${request.path}`);
          },
          (error: unknown) => {
            if (!res.headersSent) apiError(res, 500, 'internal_error', error instanceof Error ? error.message : String(error));
          },
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.add(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
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

/** Closes every loopback server still open (call from afterEach). */
export async function closeAllLoopbackServers(): Promise<void> {
  await Promise.all([...open].map(closeServer));
}

/** A JSON answer; with no body, an empty one. */
export function json(res: ServerResponse, status: number, body?: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, body === undefined ? {} : { 'Content-Type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** The services' error body: `{ "error": { "code", "message", "details"? } }`. */
export function apiError(res: ServerResponse, status: number, code: string, message: string, details?: unknown): void {
  json(res, status, { error: { code, message, ...(details === undefined ? {} : { details }) } });
}

/** Opens a Server-Sent Events reply as the ai-middleware's streams do. */
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
