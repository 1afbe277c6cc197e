import { SheetHistorySchema, type SheetVersionEntry } from '@tessera/contracts';

/** Versions of the sheet's history the model sees as recent activities. */
export const SHEET_ACTIVITY_VERSIONS = 5;
/** The api is asked briefly: the chat goes on without the history rather than wait. */
const HISTORY_TIMEOUT_MS = 3000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function describeVersion(v: SheetVersionEntry): string {
  const who = v.author ?? 'Someone';
  if (v.status === 'proposed') return `${who} proposed a version (based on version ${v.base_version ?? '?'})`;
  const what = v.delta_cells === null ? 'the whole sheet' : `${v.delta_cells} ${v.delta_cells === 1 ? 'cell' : 'cells'}`;
  return `${who} made version ${v.version} (${v.kind}: ${what})`;
}

/**
 * The sheet's latest versions as activity lines, read from the api with the user's own token
 * (so the user sees only what the api lets them see). An unreachable api or a refusal yields
 * no lines and the reason, which the caller logs: the chat does not fail for it.
 */
export async function readSheetActivity(
  apiUrl: string,
  sheetId: string,
  authorization: string,
): Promise<{ activities: { description: string; timestamp: string }[]; problem?: string }> {
  if (!UUID.test(sheetId)) return { activities: [], problem: `sheet id ${sheetId} is not a uuid` };
  try {
    const res = await fetch(`${apiUrl}/api/v1/sheets/${sheetId}/history?limit=${SHEET_ACTIVITY_VERSIONS}`, {
      headers: { authorization },
      signal: AbortSignal.timeout(HISTORY_TIMEOUT_MS),
    });
    if (!res.ok) return { activities: [], problem: `HTTP ${res.status}: ${await res.text()}` };
    const history = SheetHistorySchema.parse(await res.json());
    return { activities: history.versions.map((v) => ({ description: describeVersion(v), timestamp: v.created_at })) };
  } catch (err) {
    return { activities: [], problem: err instanceof Error ? err.message : String(err) };
  }
}
