import {
  HYBRID_STAGE_PROGRESS,
  createDevShellContext,
  type Capabilities,
  type ChatSession,
  type LiveOperationInput,
  type LiveServerFrame,
  type RowRange,
  type SheetVersionEntry,
  type ShellContext,
} from '@tessera/contracts';
import type { ServerResponse } from 'node:http';
import { json, sse, startLoopbackServer, type LoopbackRequest as Request, type LoopbackServer } from '@tessera/jest-react/loopback';

/**
 * Test support: one loopback server speaking as the ai-middleware (/health, /config,
 * /vertex/user-sessions, and whatever `routes` a test adds for /hybrid/forward and the chat
 * calls) and as the api (sheets and versions), with a shell context whose clients reach it.
 */

export const capabilities = (overrides: Partial<Capabilities> = {}): Capabilities => ({
  langGraphEnabled: false,
  hybridWorkflowSupported: true,
  threePageModeSupported: false,
  streamingSupported: true,
  gridDetectionSupported: true,
  maxRetryAttempts: 3,
  supportedFileFormats: ['csv'],
  version: '0.2.0',
  provider: 'builtin',
  ...overrides,
});

export type Route = (req: Request, res: ServerResponse) => boolean | void | Promise<boolean | void>;

export interface FakeServicesOptions {
  healthy?: boolean;
  capabilities?: Partial<Capabilities>;
  sessions?: ChatSession[];
  /** Extra routes, tried first. */
  routes?: Route;
}

export interface FakeServices {
  server: LoopbackServer;
  sessions: ChatSession[];
  /** Sheets the api created: id → name, headers and rows last saved. */
  sheets: Map<string, { name: string; headers?: string[]; data?: unknown[][]; metadata?: Record<string, unknown> }>;
  /** Proposals made, accepted, discarded and versions checked out, in order ('propose <id>', 'accept <id>', 'discard <id>', 'checkout <id>'). */
  versions: string[];
  /** The history GET /api/v1/sheets/{id}/history answers, per sheet (newest first, as the api lists it). */
  history: Map<string, SheetVersionEntry[]>;
}

let counter = 1;
const uuid = () => `00000000-0000-4000-8000-${String(counter++).padStart(12, '0')}`;

export function session(name: string, minutesAgo: number, fields: Partial<ChatSession> = {}): ChatSession {
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  return { session_id: uuid(), session_name: name, message_count: 0, last_active: at, created_at: at, context_summary: null, tags: [], ...fields };
}

export async function startFakeServices(options: FakeServicesOptions = {}): Promise<FakeServices> {
  const sessions = [...(options.sessions ?? [])];
  const sheets: FakeServices['sheets'] = new Map();
  const versions: string[] = [];
  const history: FakeServices['history'] = new Map();
  const server = await startLoopbackServer(async (req, res) => {
    if (options.routes && (await options.routes(req, res)) !== false && res.headersSent) return;
    const { method, path } = req;
    if (method === 'GET' && path === '/health') {
      return json(res, options.healthy === false ? 503 : 200, {
        service: 'ai-middleware',
        status: options.healthy === false ? 'unhealthy' : 'healthy',
        version: '0.2.0',
        uptime_s: 1,
      });
    }
    if (method === 'GET' && path === '/config') return json(res, 200, capabilities(options.capabilities));
    if (path === '/vertex/user-sessions') return sessionsRoute(req, res, sessions);
    if (method === 'POST' && path === '/api/v1/sheets') {
      const body = req.body as { name: string; metadata?: Record<string, unknown> };
      const id = uuid();
      sheets.set(id, { name: body.name, metadata: body.metadata });
      return json(res, 201, summary(id, body.name, 1));
    }
    const sheetMatch = /^\/api\/v1\/sheets\/([^/]+)$/.exec(path);
    if (method === 'PUT' && sheetMatch) {
      const sheet = sheets.get(sheetMatch[1]);
      if (!sheet) return json(res, 404, { error: { code: 'not_found', message: 'Sheet not found' } });
      const body = req.body as { headers: string[]; data: unknown[][] };
      Object.assign(sheet, { headers: body.headers, data: body.data });
      return json(res, 200, summary(sheetMatch[1], sheet.name, 2));
    }
    const proposeMatch = /^\/api\/v1\/sheets\/([^/]+)\/versions$/.exec(path);
    if (method === 'POST' && proposeMatch) {
      const id = uuid();
      versions.push(`propose ${id}`);
      return json(res, 201, {
        version_id: id,
        version: null,
        status: 'proposed',
        author: 'dev',
        author_id: 'dev-user',
        created_at: new Date().toISOString(),
        delta_cells: null,
        kind: 'proposal',
        label: null,
        base_version: 3,
      });
    }
    const historyMatch = /^\/api\/v1\/sheets\/([^/]+)\/history$/.exec(path);
    if (method === 'GET' && historyMatch) {
      const entries = history.get(historyMatch[1]) ?? [];
      const limit = Number(req.query.get('limit') ?? 50);
      const offset = Number(req.query.get('offset') ?? 0);
      const live = entries.find((e) => e.status === 'live')?.version ?? 1;
      return json(res, 200, { versions: entries.slice(offset, offset + limit), count: entries.length, live_version: live });
    }
    const checkoutMatch = /^\/api\/v1\/sheets\/([^/]+)\/versions\/([^/]+)\/checkout$/.exec(path);
    if (method === 'POST' && checkoutMatch) {
      const [, sheetId, versionId] = checkoutMatch;
      const entries = history.get(sheetId) ?? [];
      const entry = entries.find((e) => e.version_id === versionId);
      if (!entry) return json(res, 404, { error: { code: 'not_found', message: 'Version not found' } });
      if (entry.status !== 'archived') return json(res, 409, { error: { code: 'conflict', message: `Version ${versionId} is ${entry.status}` } });
      versions.push(`checkout ${versionId}`);
      const next = Math.max(...entries.map((e) => e.version ?? 0)) + 1;
      return json(res, 200, { sheet_id: sheetId, version: next, from_version_id: versionId });
    }
    const actionMatch = /^\/api\/v1\/sheets\/([^/]+)\/versions\/([^/]+)\/(accept|discard)$/.exec(path);
    if (method === 'POST' && actionMatch) {
      const [, sheetId, versionId, action] = actionMatch;
      versions.push(`${action} ${versionId}`);
      if (action === 'accept') return json(res, 200, { sheet_id: sheetId, version: 4, from_version_id: versionId });
      return json(res, 200, { status: 'discarded', version_id: versionId });
    }
    return false;
  });
  return { server, sessions, sheets, versions, history };
}

function summary(id: string, name: string, version: number) {
  const at = new Date().toISOString();
  return {
    id,
    name,
    version,
    created_at: at,
    updated_at: at,
    group_id: null,
    position: 0,
    is_favorite: false,
    metadata: { headers: [], description: '', tags: [], rows: 20, columns: 10, groupId: null, position: 0, category: 'General' },
  };
}

/** /vertex/user-sessions as spec 02 §7 and the contracts' session schemas have it. */
function sessionsRoute(req: Request, res: ServerResponse, sessions: ChatSession[]) {
  const sorted = () => sessions.sort((a, b) => b.last_active.localeCompare(a.last_active));
  if (req.method === 'GET') return json(res, 200, { sessions: sorted().slice(0, 10) });
  if (req.method === 'DELETE') {
    const id = req.query.get('session_id');
    const index = sessions.findIndex((s) => s.session_id === id);
    if (index < 0) return json(res, 404, { error: { code: 'not_found', message: 'Session not found' } });
    sessions.splice(index, 1);
    return json(res, 200, { success: true, session_id: id });
  }
  const body = req.body as { action: string; session_name?: string; session_id?: string };
  if (body.action === 'create') {
    const created = session(body.session_name ?? '', 0);
    sessions.unshift(created);
    return json(res, 201, { session: created });
  }
  const found = sessions.find((s) => s.session_id === body.session_id);
  if (!found) return json(res, 404, { error: { code: 'not_found', message: 'Session not found' } });
  found.last_active = new Date().toISOString();
  return json(res, 200, {
    session: found,
    messages: [
      { id: 'r1', session_id: found.session_id, role: 'user', content: `earlier question in ${found.session_name}`, created_at: found.created_at, metadata: {} },
      { id: 'r2', session_id: found.session_id, role: 'assistant', content: `earlier answer in ${found.session_name}`, created_at: found.created_at, metadata: {} },
    ],
  });
}

/** Streams a hybrid reply through the stages as ai-middleware/src/hybrid/hybrid-stream.ts writes them. */
export async function streamHybrid(res: ServerResponse, response: Record<string, unknown>, options: { holdAfter?: 'analysis' } = {}) {
  const stream = sse(res);
  const stage = (name: 'analysis' | 'code_generation' | 'frontend_panels' | 'handsontable_updates', text: string) =>
    stream.send({
      text,
      metadata: { stage: name, progress: HYBRID_STAGE_PROGRESS[name], ui: { text, replace_last: name !== 'analysis' } },
      error: null,
      finished: false,
    });
  stage('analysis', 'Reading the sheet: 3 rows × 2 columns');
  if (options.holdAfter === 'analysis') return stream;
  stage('code_generation', 'Running the code');
  stage('frontend_panels', 'Code ran');
  stage('handsontable_updates', 'Extracting the grid');
  stream.send({
    text: String(response.message ?? ''),
    metadata: {
      stage: 'final_response',
      progress: 100,
      ui: { text: String(response.message ?? ''), replace_last: false },
      workflow_complete: true,
      response,
    },
    error: (response.error as string | undefined) ?? null,
    finished: true,
  });
  stream.end();
  return stream;
}

/** A Direct Exec reply with a grid, as the ai-middleware answers it. */
export function hybridReply(grid: { headers: string[]; rows: (string | number | null)[][] } | null, fields: Record<string, unknown> = {}) {
  return {
    success: true,
    status: 'success',
    message: 'Code executed successfully',
    mode: 'agent-direct',
    execution_output: 'done\n',
    result: grid,
    has_grid: !!grid,
    ...(grid
      ? {
          grid_update: { ...grid, updated: true, source: 'headers_and_rows', metadata: { hash: `h-${JSON.stringify(grid)}`, detected_by: 'headers_and_rows' } },
          handsontable_data: { spreadsheet_data: grid },
        }
      : {}),
    langchain_result: { status: 'success', message: 'Code executed successfully' },
    ...fields,
  };
}

export interface TestShell {
  shell: ShellContext;
  /** Live operations the panel sent through shell.live. */
  sent: LiveOperationInput[];
  /** How many times the panel asked the server to send everyone a sync. */
  reloads(): number;
  /** Whether live sync is paused (AI Editing Mode). */
  paused(): boolean;
  /** The rows asked of the report's loadData() (undefined: the whole sheet), in order. */
  loads: (RowRange | undefined)[];
}

/** The open sheet of a test shell. */
export interface TestSheet {
  id: string;
  name: string;
  headers: string[];
  rows: (string | number | null)[][];
  version?: number;
  /**
   * Reported as a windowed sheet is (issue 23): getData() null, the cells through loadData();
   * `rows` may then be a part of the sheet, its size given by `size`.
   */
  windowed?: { size?: { rows: number; cols: number } };
}

/**
 * A shell context reaching the fake services, with the open sheet reported as the Workspace
 * reports it. shell.live records what is sent: the shell's socket is another package's.
 */
export function testShell(server: LoopbackServer, sheet?: TestSheet): TestShell {
  const shell = createDevShellContext({ apiBaseURL: server.url, aiBaseURL: server.url, sheetId: sheet?.id ?? null, onAction: () => {} });
  const sent: LiveOperationInput[] = [];
  const listeners = new Set<(frame: LiveServerFrame) => void>();
  let reloads = 0;
  let paused = false;
  // Acknowledges each operation as the server does (to the sender only), after the send returns.
  shell.live = {
    state: 'connected',
    pending: 0,
    send(op) {
      sent.push(op);
      const ack: LiveServerFrame = { type: 'ack', data: { sheet_id: sheet?.id ?? '', operation_id: op.id, version: 3 + sent.length, timestamp: new Date().toISOString() } };
      queueMicrotask(() => listeners.forEach((l) => l(ack)));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    requestReload() {
      reloads++;
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
    },
  };
  const loads: (RowRange | undefined)[] = [];
  if (sheet) {
    const report = {
      id: sheet.id,
      name: sheet.name,
      headers: sheet.headers,
      size: sheet.windowed?.size ?? { rows: sheet.rows.length, cols: sheet.headers.length },
      version: sheet.version ?? 3,
    };
    if (sheet.windowed) {
      shell.sheet.report({
        ...report,
        getData: () => null,
        loadData: async (rows) => {
          loads.push(rows);
          return rows ? sheet.rows.slice(rows.start, rows.start + rows.count) : sheet.rows;
        },
      });
    } else {
      // As an mfe-sheets built before loadData reports the sheet.
      shell.sheet.report({ ...report, getData: () => sheet.rows });
    }
  }
  return { shell, sent, reloads: () => reloads, paused: () => paused, loads };
}

/** A committed version as the api's history lists it. */
export function committedVersion(version: number, status: 'live' | 'archived', kind = 'ops'): SheetVersionEntry {
  return {
    version_id: String(version),
    version,
    status,
    author: 'dev',
    author_id: 'dev-user',
    created_at: new Date(Date.UTC(2026, 10, 23, 6, version)).toISOString(),
    delta_cells: 2,
    kind,
    label: null,
    base_version: null,
  };
}

