import { createDevShellContext, deriveCategory, type Group, type GroupTree, type ShellContext, type SheetSummary } from '@tessera/contracts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test support: a real HTTP server on loopback answering the navigator's calls as the api does. */
/** Returns true when it took the request (it may answer later); an answer also counts. */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: unknown) => boolean | void;

export interface TestApi {
  url: string;
  server: Server;
  /** Method and path of every request, in order. */
  calls: string[];
  close(): Promise<void>;
}

export async function startApi(handler: Handler): Promise<TestApi> {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    // The jsdom page has another origin: answer as a CORS-enabled api would.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,DELETE');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    calls.push(`${req.method} ${req.url}`);
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    // JSON bodies arrive parsed; others (the import's multipart upload) as their text.
    const isJson = (req.headers['content-type'] ?? '').includes('json');
    req.on('end', () => handler(req, res, raw && isJson ? JSON.parse(raw) : raw || undefined));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    calls,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

export const apiError = (res: ServerResponse, status: number, code: string, message: string) =>
  json(res, status, { error: { code, message } });

let nextId = 1;
/** A uuid-shaped id, unique within the test run. */
export const uuid = () => `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`;

export function sheet(fields: Partial<SheetSummary> & { name: string }, rows = 10, columns = 4): SheetSummary {
  const at = fields.updated_at ?? '2020-01-01T00:00:00.000Z';
  return {
    id: uuid(),
    version: 1,
    created_at: at,
    updated_at: at,
    group_id: null,
    position: 0,
    is_favorite: false,
    metadata: {
      headers: [],
      description: '',
      tags: [],
      rows,
      columns,
      groupId: fields.group_id ?? null,
      position: 0,
      // As the api derives it (first tag, else keywords of the name).
      category: deriveCategory(fields.name),
    },
    ...fields,
  };
}

export function group(name: string, parentId: string | null = null): Group {
  return {
    id: uuid(),
    name,
    parent_id: parentId,
    description: '',
    position: 0,
    created_at: '2020-01-01T00:00:00.000Z',
    updated_at: '2020-01-01T00:00:00.000Z',
  };
}

export const emptyTree = (): GroupTree => ({ groups: [], sheets: [] });

/** A dev shell against the test api, signed in as alice; `actions` records open, navigate and logout. */
export const testShell = (url: string, actions: string[] = []): ShellContext =>
  createDevShellContext({ apiBaseURL: url, user: { id: 'u-1', username: 'alice', role: 'admin' }, onAction: (a) => actions.push(a) });
