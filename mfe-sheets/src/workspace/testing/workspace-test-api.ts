import { normalizeHeaders, type CellChange, type GridData, type Sheet } from '@tessera/contracts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support: a real HTTP server on loopback that answers the Workspace's sheet calls as
 * the api does (GET/PUT/DELETE a sheet, PATCH cells with its version rule, duplicate, export),
 * holding the sheets in memory. `fault` lets a test answer a request itself first.
 */
export interface SheetTestApi {
  url: string;
  sheets: Map<string, Sheet>;
  /** Method, path and JSON body of every request, in order. */
  requests: { method: string; path: string; body: unknown }[];
  /** Answer a request here instead (return true when answered). */
  fault: ((req: IncomingMessage, res: ServerResponse, path: string) => boolean) | null;
  close(): Promise<void>;
}

let nextId = 1;
const uuid = () => `00000000-0000-4000-9000-${String(nextId++).padStart(12, '0')}`;

export function makeSheet(name: string, data: GridData, headers: string[] = []): Sheet {
  const columns = data.reduce((w, r) => Math.max(w, r.length), 0);
  return {
    id: uuid(),
    name,
    version: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    group_id: null,
    position: 0,
    is_favorite: false,
    metadata: {
      headers: normalizeHeaders(headers, columns),
      description: '',
      tags: [],
      rows: data.length,
      columns,
      groupId: null,
      position: 0,
      category: 'General',
    },
    data,
  };
}

export const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  res.writeHead(status, { 'Content-Type': type });
  res.end(typeof body === 'string' || body instanceof Buffer ? body : JSON.stringify(body));
};

const error = (res: ServerResponse, status: number, code: string, message: string, details?: unknown) =>
  send(res, status, { error: { code, message, ...(details ? { details } : {}) } });

const summary = ({ data: _data, ...rest }: Sheet) => rest;

/** Cells changed at each version, to find conflicts of a stale PATCH as the api does. */
type History = Map<string, Map<number, Set<string>>>;

export async function startSheetApi(initial: Sheet[] = []): Promise<SheetTestApi> {
  const sheets = new Map(initial.map((s) => [s.id, s]));
  const history: History = new Map();
  const requests: SheetTestApi['requests'] = [];
  const api: SheetTestApi = { url: '', sheets, requests, fault: null, close: async () => {} };

  const touch = (sheet: Sheet, cells: string[]) => {
    sheet.version += 1;
    sheet.updated_at = new Date().toISOString();
    const byVersion = history.get(sheet.id) ?? new Map<number, Set<string>>();
    byVersion.set(sheet.version, new Set(cells));
    history.set(sheet.id, byVersion);
  };

  const server = createServer((req, res) => {
    // The jsdom page has another origin: answer as a CORS-enabled api would.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Type, Content-Disposition');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body: unknown = raw ? JSON.parse(raw) : undefined;
      requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, body });
      if (api.fault?.(req, res, url.pathname)) return;

      const match = /^\/api\/v1\/sheets\/([^/]+)(\/cells|\/duplicate|\/export)?$/.exec(url.pathname);
      const sheet = match ? sheets.get(decodeURIComponent(match[1])) : undefined;
      if (!match) return error(res, 404, 'not_found', 'Not found');
      if (!sheet) return error(res, 404, 'not_found', 'Sheet not found');
      const route = `${req.method} ${match[2] ?? ''}`;

      if (route === 'GET ') return send(res, 200, sheet);
      if (route === 'DELETE ') {
        sheets.delete(sheet.id);
        return send(res, 200, { status: 'deleted', id: sheet.id });
      }
      if (route === 'PUT ') {
        const b = body as { name?: string; headers?: string[]; data?: GridData; base_version?: number };
        if (b.name !== undefined) sheet.name = b.name;
        if (b.data !== undefined) {
          sheet.data = b.data;
          sheet.metadata.rows = b.data.length;
          sheet.metadata.columns = b.data.reduce((w, r) => Math.max(w, r.length), 0);
        }
        if (b.headers !== undefined) sheet.metadata.headers = b.headers;
        touch(sheet, []);
        return send(res, 200, summary(sheet));
      }
      if (route === 'PATCH /cells') {
        const b = body as { base_version: number; changes: CellChange[] };
        const since = [...(history.get(sheet.id) ?? new Map<number, Set<string>>()).entries()]
          .filter(([v]) => v > b.base_version)
          .flatMap(([, cells]) => [...cells]);
        const conflicts = b.changes.filter((c) => since.includes(`${c.row}:${c.col}`));
        if (conflicts.length > 0) {
          return error(res, 409, 'conflict', `The sheet changed since the version you edited (now version ${sheet.version})`, {
            current_version: sheet.version,
            conflicts: conflicts.map((c) => ({ row: c.row, col: c.col, value: sheet.data[c.row]?.[c.col] ?? null })),
          });
        }
        for (const { row, col, value } of b.changes) {
          while (sheet.data.length <= row) sheet.data.push([]);
          const cells = sheet.data[row];
          while (cells.length <= col) cells.push(null);
          cells[col] = value;
          sheet.metadata.rows = Math.max(sheet.metadata.rows, row + 1);
          sheet.metadata.columns = Math.max(sheet.metadata.columns, col + 1);
        }
        touch(sheet, b.changes.map((c) => `${c.row}:${c.col}`));
        return send(res, 200, { id: sheet.id, version: sheet.version, updated_at: sheet.updated_at });
      }
      if (route === 'POST /duplicate') {
        const copy = { ...(JSON.parse(JSON.stringify(sheet)) as Sheet), id: uuid(), name: `${sheet.name} (Copy)`, version: 1 };
        sheets.set(copy.id, copy);
        return send(res, 201, summary(copy));
      }
      if (route === 'GET /export') {
        const format = url.searchParams.get('format');
        if (format !== 'csv') return error(res, 400, 'validation_failed', `Unsupported export format: ${format}`);
        const lines = [sheet.metadata.headers, ...sheet.data].map((r) => r.map((c) => (c === null ? '' : String(c))).join(','));
        return send(res, 200, `${lines.join('\n')}\n`, 'text/csv; charset=utf-8');
      }
      return error(res, 405, 'bad_request', 'Method not allowed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return api;
}
