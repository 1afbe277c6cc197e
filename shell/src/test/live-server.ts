import { apiError, startLoopbackServer } from '@tessera/jest-react/loopback';
import type { IncomingMessage } from 'node:http';
import { LIVE_TOKEN_PROTOCOL, liveTokenFromProtocols } from '@tessera/contracts';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * Test support: a real WebSocket server on loopback standing in for the api's live sockets.
 * Test files that use it run jsdom with node export conditions (the `ws` package's browser
 * entry only throws): `@jest-environment-options {"customExportConditions": ["node"]}`.
 */

export interface LivePeer {
  /** Path and query the socket was opened with, e.g. '/sheets/s1?since=4'. */
  url: string;
  path: string;
  query: URLSearchParams;
  /** The token offered as ['tessera.bearer', token]. */
  token: string | undefined;
  /** Frames received, parsed. */
  frames: Record<string, unknown>[];
  socket: WebSocket;
  send(frame: unknown): void;
}

export interface LiveServer {
  /** http://127.0.0.1:port (the client turns it into ws://). */
  url: string;
  /** Every socket opened so far, in order (closed ones included). */
  peers: LivePeer[];
  /** The sockets open now. */
  open(): LivePeer[];
  /** Acks each operation frame as the api does (off by default); idempotent by operation id. */
  autoAck: boolean;
  /** Plain (non-socket) requests answered so far. */
  answered: number;
  /** Called for each new socket (e.g. to send presence). */
  onConnect?: (peer: LivePeer) => void;
  /**
   * As the api does once a sheet socket has joined: a `presence` frame first (off by default).
   * The client replays its queued operations only after the server's first frame.
   */
  greet: boolean;
  /** Refuses the next upgrades with this close code right after opening (e.g. 1008), while set. */
  refuseWith: number | null;
  /** Cuts every open socket without a close handshake (a network drop). */
  dropAll(): void;
  /** Resolves when `predicate` holds, checking after every event of the server. */
  until(predicate: () => boolean, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startLiveServer(): Promise<LiveServer> {
  const waiters = new Set<() => void>();
  const poke = () => {
    for (const w of [...waiters]) w();
  };
  const acked = new Map<string, number>();
  let version = 0;
  // Plain requests (the main screen's health checks) get a CORS-enabled 404 at once.
  const http = await startLoopbackServer((_req, res) => {
    apiError(res, 404, 'not_found', 'Only sockets here');
    server.answered += 1;
    poke();
  });
  const wss = new WebSocketServer({
    noServer: true,
    // As the api does: select the marker protocol, never echo the token.
    handleProtocols: (protocols) => (protocols.has(LIVE_TOKEN_PROTOCOL) ? LIVE_TOKEN_PROTOCOL : false),
  });
  const server: LiveServer = {
    url: '',
    peers: [],
    open: () => server.peers.filter((p) => p.socket.readyState === p.socket.OPEN),
    autoAck: true,
    greet: false,
    answered: 0,
    refuseWith: null,
    dropAll() {
      for (const p of server.open()) p.socket.terminate();
    },
    until(predicate, what = 'condition') {
      if (predicate()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`live server: timed out waiting for ${what}`));
        }, 10_000);
        const check = () => {
          if (!predicate()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await http.close();
    },
  };
  http.server.on('upgrade', (req: IncomingMessage, socket, head) => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const offered = req.headers['sec-websocket-protocol'];
      const peer: LivePeer = {
        url: `${url.pathname}${url.search}`,
        path: url.pathname,
        query: url.searchParams,
        token: liveTokenFromProtocols(typeof offered === 'string' ? offered : undefined),
        frames: [],
        socket: ws,
        send: (frame) => ws.send(JSON.stringify(frame)),
      };
      server.peers.push(peer);
      if (server.refuseWith !== null) {
        ws.close(server.refuseWith, 'Refused');
        poke();
        return;
      }
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as Record<string, unknown>;
        peer.frames.push(frame);
        const operation = frame.operation as { id?: string } | undefined;
        if (server.autoAck && frame.type === 'operation' && operation?.id) {
          const at = acked.get(operation.id) ?? ++version;
          acked.set(operation.id, at);
          peer.send({ type: 'ack', data: { sheet_id: frame.sheet_id, operation_id: operation.id, version: at, timestamp: new Date().toISOString() } });
        }
        poke();
      });
      ws.on('close', poke);
      const sheet = /^\/sheets\/([^/]+)$/.exec(url.pathname);
      if (server.greet && sheet) peer.send({ type: 'presence', data: { sheet_id: decodeURIComponent(sheet[1]), users: [] } });
      server.onConnect?.(peer);
      poke();
    });
  });
  server.url = http.url;
  return server;
}
