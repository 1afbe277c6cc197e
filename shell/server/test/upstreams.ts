import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Upstream {
  url: string;
  requests: SeenRequest[];
  upgrades: string[];
  /** The headers of each upgrade, in the order of `upgrades`. */
  upgradeHeaders: IncomingHttpHeaders[];
  /** Status the next plain requests get (default 200). */
  status: number;
  close(): Promise<void>;
}

/**
 * A real HTTP + WebSocket server on loopback standing in for the api or the
 * ai-middleware: it echoes what it received, and echoes socket messages
 * prefixed with its name and the socket's path.
 */
export async function startUpstream(name: string): Promise<Upstream> {
  const upstream: Upstream = { url: '', requests: [], upgrades: [], upgradeHeaders: [], status: 200, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      upstream.requests.push(seen);
      res.writeHead(upstream.status, { 'content-type': 'application/json', 'x-upstream': name });
      res.end(JSON.stringify({ service: name, method: seen.method, url: seen.url, body: seen.body }));
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    upstream.upgrades.push(req.url ?? '');
    upstream.upgradeHeaders.push(req.headers);
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data) => ws.send(`${name}${req.url}:${data.toString()}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream.close = async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  };
  return upstream;
}
