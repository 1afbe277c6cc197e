import { type ColumnFilterBody, FilteredFindBodySchema, filterRowTest, FilterValuesScan, FindQuerySchema, FindScan, RowFilterScan, SheetFilterBodySchema, SheetFilterValuesBodySchema, hasFormula, heldCells, normalizeHeaders, opensWindowed, type GridData, type Sheet } from '@tessera/contracts';
import { apiError, startLoopbackServer } from '@tessera/jest-react/loopback';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { attachLiveTestHub, type LiveTestHub } from './live-test-hub.js';

/**
 * Test support: a loopback server (tooling/jest-react) that answers the Workspace's sheet calls as
 * the api does (GET/PUT/DELETE a sheet, a window of its rows, a find in its rows, a row filter of them, duplicate, export),
 * holding the sheets in memory, and the live socket `/sheets/{id}` over the same sheets
 * (`live`). `fault` lets a test answer a request itself first.
 */
export interface SheetTestApi {
  url: string;
  sheets: Map<string, Sheet>;
  /** Method, path and JSON body of every request, in order. */
  requests: { method: string; path: string; body: unknown }[];
  /** Answer a request here instead (return true when answered). */
  fault: ((req: IncomingMessage, res: ServerResponse, path: string) => boolean) | null;
  live: LiveTestHub;
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

/** As the api: the sheet without its cells, saying whether a cell may hold a formula. */
const summary = ({ data, ...rest }: Sheet) => ({ ...rest, may_have_formulas: hasFormula(data) });

/** A find (windowed sheets and their versions), by the api's own scan (contracts FindScan) over `rows`, in windows as the api reads them. */
export function findIn(rows: GridData, params: URLSearchParams | unknown): ReturnType<FindScan['result']> | { error: string } {
  // GET's query, or POST's body (the user's row filter on: its rows only, as the api's filterRowTest).
  const query = params instanceof URLSearchParams ? FindQuerySchema.safeParse(Object.fromEntries(params)) : FilteredFindBodySchema.safeParse(params);
  if (!query.success) return { error: query.error.issues[0].message };
  const filters = 'filters' in query.data ? (query.data.filters as ColumnFilterBody[]) : null;
  const scan = new FindScan(query.data, filters ? filterRowTest(filters) : undefined);
  let complete = true;
  for (let first = 0; first < rows.length; first += 5_000) {
    if (!scan.feed(rows.slice(first, first + 5_000), first)) {
      complete = first + 5_000 >= rows.length;
      break;
    }
  }
  return scan.result(complete);
}

/** A windowed sheet's row filter (POST /filter, /filter/values), by the api's own scans (contracts RowFilterScan, FilterValuesScan) fed in windows. */
export function filterIn(rows: GridData, body: unknown, values: boolean): object | { error: string } {
  const feed = (scan: { feed(rows: GridData, first: number): void }) => {
    for (let first = 0; first < rows.length; first += 5_000) scan.feed(rows.slice(first, first + 5_000), first);
  };
  if (values) {
    const parsed = SheetFilterValuesBodySchema.safeParse(body);
    if (!parsed.success) return { error: parsed.error.issues[0].message };
    const scan = new FilterValuesScan(parsed.data.filters, parsed.data.column, parsed.data.search, parsed.data.all);
    feed(scan);
    return scan.result();
  }
  const parsed = SheetFilterBodySchema.safeParse(body);
  if (!parsed.success) return { error: parsed.error.issues[0].message };
  const scan = new RowFilterScan(parsed.data.filters);
  feed(scan);
  return scan.result(rows.length);
}

export async function startSheetApi(initial: Sheet[] = []): Promise<SheetTestApi> {
  const sheets = new Map(initial.map((s) => [s.id, s]));
  const requests: SheetTestApi['requests'] = [];
  const api = { url: '', sheets, requests, fault: null, close: async () => {} } as Omit<SheetTestApi, 'live'> as SheetTestApi;

  const touch = (sheet: Sheet) => {
    sheet.version += 1;
    sheet.updated_at = new Date().toISOString();
  };

  const loopback = await startLoopbackServer((request, res) => {
    const req = request.incoming;
    const url = new URL(request.url, 'http://x');
    const body = request.body;
    requests.push({ method: request.method, path: request.url, body });
    if (api.fault?.(req, res, url.pathname)) return;

    const match = /^\/api\/v1\/sheets\/([^/]+)(\/duplicate|\/export|\/rows|\/find|\/filter|\/filter\/values)?$/.exec(url.pathname);
    const sheet = match ? sheets.get(decodeURIComponent(match[1])) : undefined;
    if (!match) return apiError(res, 404, 'not_found', 'Not found');
    if (!sheet) return apiError(res, 404, 'not_found', 'Sheet not found');
    const route = `${req.method} ${match[2] ?? ''}`;

    if (route === 'GET ') {
      // As the api: with window=N, a sheet shown a window at a time comes with its first N rows.
      const window = url.searchParams.get('window');
      // The cells the formula engine would hold, as GET /sheets/:id gives them.
      const head = { ...summary(sheet), held_cells: heldCells(sheet.data) };
      if (window !== null && opensWindowed(head)) return send(res, 200, { ...head, windowed: true, data: sheet.data.slice(0, Number(window)) });
      return send(res, 200, { ...head, data: sheet.data });
    }
    if (route === 'GET /rows') {
      // A window of rows (issue 23), with the summary when asked for.
      const start = Number(url.searchParams.get('start') ?? 0);
      const count = Number(url.searchParams.get('count') ?? 5000);
      const columns = sheet.data.reduce((w, r) => Math.max(w, r.length), 0);
      // With col_start and col_count, as the api: each row of those columns only.
      const colStart = url.searchParams.get('col_start');
      const colEnd = Number(colStart) + Number(url.searchParams.get('col_count'));
      const window = sheet.data.slice(start, start + count);
      const data = colStart === null ? window : window.map((row) => row.slice(Number(colStart), colEnd));
      const rows = { id: sheet.id, version: sheet.version, row_count: sheet.data.length, column_count: columns, start, data, ...(colStart === null ? {} : { col_start: Number(colStart) }) };
      return send(res, 200, url.searchParams.get('summary') === '1' ? { ...rows, sheet: summary(sheet) } : rows);
    }
    if (route === 'GET /find' || route === 'POST /find') {
      const found = findIn(sheet.data, route === 'GET /find' ? url.searchParams : body);
      if ('error' in found) return apiError(res, 400, 'validation_failed', found.error);
      return send(res, 200, { id: sheet.id, version: sheet.version, row_count: sheet.data.length, ...found });
    }
    if (route === 'POST /filter' || route === 'POST /filter/values') {
      const answer = filterIn(sheet.data, body, route === 'POST /filter/values');
      if ('error' in answer) return apiError(res, 400, 'validation_failed', answer.error);
      return send(res, 200, { id: sheet.id, version: sheet.version, ...(route === 'POST /filter' ? { row_count: sheet.data.length } : {}), ...answer });
    }
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
      touch(sheet);
      api.live.restSaved(sheet);
      return send(res, 200, summary(sheet));
    }
    if (route === 'POST /duplicate') {
      const copy = { ...(JSON.parse(JSON.stringify(sheet)) as Sheet), id: uuid(), name: `${sheet.name} (Copy)`, version: 1 };
      sheets.set(copy.id, copy);
      return send(res, 201, summary(copy));
    }
    if (route === 'GET /export') {
      const format = url.searchParams.get('format');
      if (format !== 'csv') return apiError(res, 400, 'validation_failed', `Unsupported export format: ${format}`);
      const lines = [sheet.metadata.headers, ...sheet.data].map((r) => r.map((c) => (c === null ? '' : String(c))).join(','));
      return send(res, 200, `${lines.join('\n')}\n`, 'text/csv; charset=utf-8');
    }
    return apiError(res, 405, 'bad_request', 'Method not allowed');
  });
  api.live = attachLiveTestHub(loopback.server, sheets, touch);
  api.url = loopback.url;
  api.close = async () => {
    api.live.closeAll();
    await loopback.close();
  };
  return api;
}
