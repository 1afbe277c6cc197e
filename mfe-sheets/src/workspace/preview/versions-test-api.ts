import { SheetVersionSchema, type CellHistory, type GridData, type SheetVersion } from '@tessera/contracts';
import { findIn, send, type SheetTestApi } from '../testing/workspace-test-api.js';

/**
 * Test support: the api's version routes (api README § Versions) on the Workspace's loopback
 * test server. GET .../versions/{id} answers the version held in `versions`; POST
 * .../versions/{id}/accept (a proposal) and /checkout (an archived version) make its rows the
 * sheet's content as a new live version, with the api's refusals (409) for other statuses;
 * GET .../versions/{id}/rows a window of its rows (issue 23);
 * GET .../cells/{row}/{col}/history answers `cellHistory`. `next` answers the next call instead.
 */
export interface VersionsTestApi {
  /** By sheet id, then version id. */
  versions: Map<string, Map<string, SheetVersion>>;
  /** By sheet id, then `${row}:${col}`. */
  cellHistory: Map<string, Map<string, CellHistory['changes']>>;
  next: { status: number; body: unknown } | null;
}

/** A version as the api lists it, checked with the contracts' schema. */
export function versionOf(versionId: string, status: SheetVersion['status'], headers: string[], rows: GridData): SheetVersion {
  const numbered = /^\d+$/.test(versionId);
  return SheetVersionSchema.parse({
    version_id: versionId,
    version: numbered ? Number(versionId) : null,
    status,
    author: 'ana',
    author_id: 'u-ana',
    created_at: '2026-01-01T00:00:00.000Z',
    delta_cells: 1,
    kind: numbered ? 'edit' : 'proposal',
    label: null,
    base_version: numbered ? null : 1,
    headers,
    rows,
    changes: null,
  });
}

export function serveVersions(api: SheetTestApi): VersionsTestApi {
  const store: VersionsTestApi = { versions: new Map(), cellHistory: new Map(), next: null };
  const previous = api.fault;
  api.fault = (req, res, path) => {
    const version = /^\/api\/v1\/sheets\/([^/]+)\/versions\/([^/]+)(?:\/(accept|checkout|rows|find))?$/.exec(path);
    const cell = /^\/api\/v1\/sheets\/([^/]+)\/cells\/(\d+)\/(\d+)\/history$/.exec(path);
    if (!version && !cell) return previous?.(req, res, path) ?? false;
    if (store.next) {
      const { status, body } = store.next;
      store.next = null;
      send(res, status, body);
      return true;
    }
    const sheet = api.sheets.get(decodeURIComponent((version ?? cell)![1]));
    if (!sheet) {
      send(res, 404, { error: { code: 'not_found', message: 'Sheet not found' } });
      return true;
    }
    if (cell) {
      send(res, 200, { row: Number(cell[2]), col: Number(cell[3]), changes: store.cellHistory.get(sheet.id)?.get(`${cell[2]}:${cell[3]}`) ?? [] });
      return true;
    }
    const entry = store.versions.get(sheet.id)?.get(decodeURIComponent(version![2]));
    if (!entry) {
      send(res, 404, { error: { code: 'not_found', message: 'Version not found' } });
      return true;
    }
    const action = version![3];
    if (req.method === 'GET' && action === undefined) {
      send(res, 200, entry);
      return true;
    }
    if (req.method === 'GET' && action === 'rows') {
      // A window of the version's rows (issue 23), with the version without its rows on summary=1.
      const query = new URL(req.url ?? '', 'http://x').searchParams;
      const start = Number(query.get('start') ?? 0);
      const count = Number(query.get('count') ?? 5_000);
      const { rows, ...head } = entry;
      const columns = rows.reduce((w, r) => Math.max(w, r.length), entry.headers.length);
      send(res, 200, { version_id: entry.version_id, row_count: rows.length, column_count: columns, start, data: rows.slice(start, start + count), ...(query.get('summary') === '1' ? { version: head } : {}) });
      return true;
    }
    if (req.method === 'GET' && action === 'find') {
      // A find in the version (its windowed preview's), by the api's scan over the version's rows.
      const found = findIn(entry.rows, new URL(req.url ?? '', 'http://x').searchParams);
      if ('error' in found) send(res, 400, { error: { code: 'validation_failed', message: found.error } });
      else send(res, 200, { id: sheet.id, version: Number(entry.version_id) || 0, row_count: entry.rows.length, ...found });
      return true;
    }
    if (req.method === 'POST' && action !== undefined && action !== 'rows' && action !== 'find') {
      const allowed = action === 'accept' ? entry.status === 'proposed' : entry.status === 'archived';
      if (!allowed) {
        send(res, 409, { error: { code: 'conflict', message: `Cannot ${action} a ${entry.status} version` } });
        return true;
      }
      sheet.data = JSON.parse(JSON.stringify(entry.rows)) as GridData;
      sheet.metadata.headers = [...entry.headers];
      sheet.metadata.rows = entry.rows.length;
      sheet.metadata.columns = entry.rows.reduce((w, r) => Math.max(w, r.length), 0);
      sheet.version += 1;
      if (action === 'accept') store.versions.get(sheet.id)?.delete(entry.version_id);
      send(res, 200, { sheet_id: sheet.id, version: sheet.version, from_version_id: entry.version_id });
      return true;
    }
    send(res, 405, { error: { code: 'bad_request', message: 'Method not allowed' } });
    return true;
  };
  return store;
}
