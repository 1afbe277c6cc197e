import type { GridData, Snapshot } from '@tessera/contracts';
import { send, type SheetTestApi } from '../testing/workspace-test-api.js';

/**
 * Test support: the api's Timeline routes (api README § Versions) on the Workspace's loopback
 * test server: GET .../snapshots?limit=N answers `snapshots` (newest first, at most N), and
 * POST .../snapshots/{v}/restore makes the content held in `contents` for that version a new
 * live version, as the api's checkout does (and a Timeline entry of its own). `next` answers the
 * next Timeline call with that reply instead (an error, a malformed body).
 */
export interface TimelineTestApi {
  snapshots: Map<string, Snapshot[]>;
  /** A sheet's content at each version, by sheet id then version. */
  contents: Map<string, Map<number, GridData>>;
  next: { status: number; body: unknown } | null;
}

export function serveTimeline(api: SheetTestApi): TimelineTestApi {
  const timeline: TimelineTestApi = { snapshots: new Map(), contents: new Map(), next: null };
  const previous = api.fault;
  api.fault = (req, res, path) => {
    const match = /^\/api\/v1\/sheets\/([^/]+)\/snapshots(?:\/([^/]+)\/restore)?$/.exec(path);
    if (!match) return previous?.(req, res, path) ?? false;
    if (timeline.next) {
      const { status, body } = timeline.next;
      timeline.next = null;
      send(res, status, body);
      return true;
    }
    const sheet = api.sheets.get(decodeURIComponent(match[1]));
    if (!sheet) {
      send(res, 404, { error: { code: 'not_found', message: 'Sheet not found' } });
      return true;
    }
    if (req.method === 'GET' && match[2] === undefined) {
      const limit = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit') ?? 60);
      send(res, 200, { snapshots: (timeline.snapshots.get(sheet.id) ?? []).slice(0, limit) });
      return true;
    }
    if (req.method === 'POST' && match[2] !== undefined) {
      const version = Number(match[2]);
      if (version === sheet.version) {
        send(res, 409, { error: { code: 'conflict', message: `Version ${version} is already live` } });
        return true;
      }
      const content = timeline.contents.get(sheet.id)?.get(version);
      if (!content) {
        send(res, 404, { error: { code: 'not_found', message: 'Version not found' } });
        return true;
      }
      sheet.data = JSON.parse(JSON.stringify(content)) as GridData;
      sheet.metadata.rows = content.length;
      sheet.metadata.columns = content.reduce((w, r) => Math.max(w, r.length), 0);
      sheet.version += 1;
      // A restore is a Timeline entry of its own.
      timeline.snapshots.get(sheet.id)?.unshift({
        sheet_id: sheet.id,
        version: sheet.version,
        first_version: sheet.version,
        created_at: new Date().toISOString(),
        author: null,
        delta_cells: null,
        label: null,
      });
      send(res, 200, { sheet_id: sheet.id, version: sheet.version, from_version_id: String(version) });
      return true;
    }
    send(res, 405, { error: { code: 'bad_request', message: 'Method not allowed' } });
    return true;
  };
  return timeline;
}
