// A fake OpenAI-compatible server on loopback that speaks the real chat.completions protocol:
// `POST /v1/chat/completions` with stream true answers Server-Sent Events of
// chat.completion.chunk objects, then `data: [DONE]`; errors are the real {error: {...}} bodies.
// Each request takes the next scripted reply; every request is recorded with how it ended.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeReply =
  /** The reply's text in these chunks (one content delta each), a pause between them. */
  | { chunks: string[]; pauseMs?: number }
  /** An HTTP error with this body (JSON when an object). */
  | { status: number; body: unknown }
  /** Some chunks, then an error event inside the stream (as OpenAI sends when a stream fails). */
  | { chunks: string[]; streamError: { message: string; type?: string } }
  /** Headers, then nothing: the request stays open until the client gives up. */
  | { hang: true };

export interface FakeRequest {
  body: {
    model: string;
    stream?: boolean;
    temperature?: number;
    messages: Array<{ role: string; content: string }>;
  };
  authorization: string | undefined;
  /** Resolves when the request is over: 'completed' (the whole reply sent) or 'aborted' (the client closed it first). */
  ended: Promise<'completed' | 'aborted'>;
}

export interface FakeOpenAi {
  /** The base URL to give as AI_BASE_URL (…/v1). */
  baseUrl: string;
  requests: FakeRequest[];
  /** Queues replies, taken one per request in order. */
  reply(...replies: FakeReply[]): void;
  /** Resolves when the n-th request (1-based) has arrived. */
  requestArrived(n: number): Promise<FakeRequest>;
  close(): Promise<void>;
}

/** Shorthand: a reply whose text is this Python program in a fenced block, in a few chunks. */
export function codeReply(code: string, preface = 'Here is the program:\n'): FakeReply {
  const text = `${preface}\`\`\`python\n${code}\n\`\`\`\n`;
  const size = Math.ceil(text.length / 4);
  return { chunks: [0, 1, 2, 3].map((i) => text.slice(i * size, (i + 1) * size)).filter(Boolean) };
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const queue: FakeReply[] = [];
  const requests: FakeRequest[] = [];
  const waiters: Array<{ n: number; resolve: (r: FakeRequest) => void }> = [];
  const sockets = new Set<import('node:net').Socket>();

  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `Unknown path ${req.url}` } }));
      return;
    }
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let finished = false;
    const ended = new Promise<'completed' | 'aborted'>((resolve) => {
      res.on('close', () => resolve(finished ? 'completed' : 'aborted'));
    });
    const record: FakeRequest = { body: JSON.parse(raw) as FakeRequest['body'], authorization: req.headers.authorization, ended };
    requests.push(record);
    for (const waiter of waiters.filter((w) => w.n === requests.length)) waiter.resolve(record);

    const script = queue.shift() ?? { status: 500, body: { error: { message: 'fake server: no reply scripted', type: 'server_error' } } };
    if ('status' in script) {
      const json = typeof script.body === 'string' ? script.body : JSON.stringify(script.body);
      finished = true;
      res.writeHead(script.status, { 'content-type': typeof script.body === 'string' ? 'text/plain' : 'application/json' }).end(json);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    if ('hang' in script) return;
    const id = `chatcmpl-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const model = record.body.model;
    const send = (delta: Record<string, unknown>, finish: string | null) =>
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_fake', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`);
    send({ role: 'assistant', content: '' }, null);
    for (const chunk of script.chunks) {
      if (res.destroyed) return;
      if ('pauseMs' in script && script.pauseMs) await new Promise((r) => setTimeout(r, script.pauseMs));
      if (res.destroyed) return;
      send({ content: chunk }, null);
    }
    if ('streamError' in script) {
      res.write(`data: ${JSON.stringify({ error: { message: script.streamError.message, type: script.streamError.type ?? 'server_error', param: null, code: null } })}\n\n`);
      finished = true;
      res.end();
      return;
    }
    send({}, 'stop');
    res.write('data: [DONE]\n\n');
    finished = true;
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => queue.push(...replies),
    requestArrived: (n) =>
      requests.length >= n ? Promise.resolve(requests[n - 1]!) : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
