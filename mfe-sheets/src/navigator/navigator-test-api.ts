import { createDevShellContext, deriveCategory, type Group, type GroupTree, type ShellContext, type SheetSummary } from '@tessera/contracts';
import { apiError, json, startLoopbackServer } from '@tessera/jest-react/loopback';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export { apiError, json };

/** Test support: a loopback server (tooling/jest-react) answering the navigator's calls as the api does. */
/** Answers now or later; a request it leaves unanswered stays pending. */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: unknown) => boolean | void;

export interface TestApi {
  url: string;
  server: Server;
  /** Method and path (with its query) of every request, in order. */
  calls: string[];
  close(): Promise<void>;
}

export async function startApi(handler: Handler): Promise<TestApi> {
  // JSON bodies arrive parsed; others (the import's multipart upload) as their text.
  const calls: string[] = [];
  const loopback = await startLoopbackServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    handler(req.incoming, res, req.body);
  });
  return { url: loopback.url, server: loopback.server, calls, close: loopback.close };
}

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
