import { SheetVersionEntrySchema, VersionLabelBodySchema, type SheetVersionEntry } from '@tessera/contracts';
import { apiError, json, startLoopbackServer } from '@tessera/jest-react/loopback';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Test support: a real HTTP server on loopback answering the api's sheet version routes
 * (api README § Versions) for one sheet, with the api's state machine: accept a proposal or
 * check out an archived version → a new live version, the previous live one archived; discard a
 * proposal or an archived version; everything else 409 with the reason. Replies are built with
 * the contracts' schemas. The api's own tests check the real service; these the panel.
 */
export interface VersionsTestApi {
  url: string;
  sheetId: string;
  /** Method and path of every request, in order. */
  calls: string[];
  /** Newest first, proposals first, as GET /history lists them. */
  versions: SheetVersionEntry[];
  /** Every GET /history answers this status from now on (null: normally). */
  failHistory: number | null;
  /** The caller's level on the sheet (GET /access); the prune route refuses all but owners, as the api does. */
  level: 'owner' | 'editor' | 'viewer';
  /** The retention policies POST /history/prune was called with. */
  prunes: unknown[];
  close(): Promise<void>;
}

const refuse = (res: ServerResponse, status: number, code: string, message: string) => apiError(res, status, code, message);

export function entry(fields: Partial<SheetVersionEntry> & Pick<SheetVersionEntry, 'version_id' | 'status'>): SheetVersionEntry {
  const numbered = /^\d+$/.test(fields.version_id);
  return SheetVersionEntrySchema.parse({
    version: numbered ? Number(fields.version_id) : null,
    author: 'ana',
    author_id: 'u-ana',
    created_at: new Date().toISOString(),
    delta_cells: 1,
    kind: numbered ? 'edit' : 'proposal',
    label: null,
    base_version: numbered ? null : 1,
    ...fields,
  });
}

export async function startVersionsApi(sheetId: string, versions: SheetVersionEntry[]): Promise<VersionsTestApi> {
  const api: VersionsTestApi = { url: '', sheetId, calls: [], versions, failHistory: null, level: 'editor', prunes: [], close: async () => {} };
  const base = `/api/v1/sheets/${sheetId}`;

  const newLive = (from: SheetVersionEntry) => {
    const live = api.versions.find((v) => v.status === 'live');
    if (live) live.status = 'archived';
    const version = Math.max(0, ...api.versions.map((v) => v.version ?? 0)) + 1;
    api.versions.unshift(entry({ version_id: String(version), status: 'live', kind: 'checkout', delta_cells: null }));
    // Proposals stay listed first.
    api.versions.sort((a, b) => Number(b.status === 'proposed') - Number(a.status === 'proposed'));
    return { sheet_id: sheetId, version, from_version_id: from.version_id };
  };

  const routes = (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const url = new URL(req.url ?? '/', 'http://test');
    if (req.method === 'GET' && url.pathname === `${base}/history`) {
      if (api.failHistory) return refuse(res, api.failHistory, 'forbidden', 'You cannot see this sheet');
      const live = api.versions.find((v) => v.status === 'live');
      return json(res, 200, { versions: api.versions, count: api.versions.length, live_version: live?.version ?? 0 });
    }
    if (req.method === 'GET' && url.pathname === `${base}/access`) {
      return json(res, 200, { item: { type: 'sheet', id: sheetId, name: 'Sheet' }, access: api.level, rows: [], workspace_default: 'editor' });
    }
    if (req.method === 'POST' && url.pathname === `${base}/history/prune`) {
      if (api.level !== 'owner') return refuse(res, 403, 'forbidden', 'Only owners can do this');
      api.prunes.push(body);
      // The two oldest archived versions go (the live one and named ones always stay).
      const gone = api.versions.filter((v) => v.status === 'archived' && !v.label).slice(-2);
      api.versions = api.versions.filter((v) => !gone.includes(v));
      return json(res, 200, { sheet_id: sheetId, pruned: gone.length, kept: api.versions.length });
    }
    const match = new RegExp(`^${base}/versions/([^/]+)/(accept|checkout|discard|label)$`).exec(url.pathname);
    if (!match) return refuse(res, 404, 'not_found', 'Not found');
    const target = api.versions.find((v) => v.version_id === decodeURIComponent(match[1]));
    if (!target) return refuse(res, 404, 'not_found', 'Version not found');
    const action = match[2];
    if (action === 'label') {
      target.label = req.method === 'DELETE' ? null : VersionLabelBodySchema.parse(body).label;
      return json(res, 200, target);
    }
    if (action === 'accept') {
      if (target.status !== 'proposed') return refuse(res, 409, 'conflict', `Version ${target.version_id} is not a proposal`);
      api.versions.splice(api.versions.indexOf(target), 1);
      return json(res, 200, newLive(target));
    }
    if (action === 'checkout') {
      if (target.status === 'proposed') return refuse(res, 409, 'conflict', 'A proposal is accepted, not checked out');
      if (target.status === 'live') return refuse(res, 409, 'conflict', 'This version is already live');
      return json(res, 200, newLive(target));
    }
    if (target.status === 'live') return refuse(res, 409, 'conflict', 'The live version cannot be discarded');
    api.versions.splice(api.versions.indexOf(target), 1);
    return json(res, 200, { sheet_id: sheetId, version_id: target.version_id, status: 'discarded' });
  };

  const loopback = await startLoopbackServer((req, res) => {
    api.calls.push(`${req.method} ${req.url}`);
    try {
      routes(req.incoming, res, req.body);
    } catch (err) {
      refuse(res, 400, 'validation_failed', err instanceof Error ? err.message : String(err));
    }
  });
  api.url = loopback.url;
  api.close = loopback.close;
  return api;
}
