import {
  ACCESS_TEXTS,
  ErrorBodySchema,
  type HybridForwardRequest,
  type HybridResponse,
  type MergeTimelineSnapshot,
  SheetVersionEntrySchema,
  hybridRequestSheet,
} from '@tessera/contracts';

/** A large proposal (100k rows) takes the api a while to store; past this the merge is reported failed. */
const PROPOSE_TIMEOUT_MS = 60_000;
/** The api's limits on a proposal's headers (CreateProposalBodySchema). */
const PROPOSAL_MAX_HEADERS = 1000;
const PROPOSAL_MAX_HEADER_LENGTH = 200;

export interface MergeTimelineInput {
  /** The api's base URL (API_URL). */
  apiUrl: string;
  /** The caller's own Authorization header: the proposal is theirs, with their rights. */
  authorization: string;
  body: HybridForwardRequest;
  /** The result grid of the call, if it made one. */
  grid: { headers: string[]; rows: (string | number | boolean | null)[][] } | undefined;
}

/** The sheet a hybrid call merges into: sheet_id, else sheet_context.id (spec 02 §5); none when merge_timeline is false. */
export function mergeTarget(body: HybridForwardRequest): string | undefined {
  const sheetId = body.sheet_id ?? body.sheet_context?.id;
  // merge_timeline defaults to true when a sheet id is present (spec 02 §5).
  if (!sheetId || body.merge_timeline === false) return undefined;
  return sheetId;
}

/**
 * merge_timeline (DESIGN.md § Where an AI result goes): a result grid with the active sheet's
 * headers — a transform of that sheet (sort, filter, edit) — becomes a proposed version of it
 * through the api's POST /api/v1/sheets/{id}/versions, made with the user's own token; the
 * reply's snapshot names the proposal, or the error. A grid of another shape (an aggregate, a
 * schedule) is not the sheet's next version: it is left to the panel, which makes a new sheet
 * of it, and no snapshot is returned; so is any grid when the caller may only view the sheet. Nothing happens without a sheet id or with merge_timeline false.
 */
export async function mergeTimeline(input: MergeTimelineInput): Promise<MergeTimelineSnapshot | undefined> {
  const sheetId = mergeTarget(input.body);
  if (!sheetId || !input.grid) return undefined;
  const { headers } = hybridRequestSheet(input.body);
  const sameShape = headers.length > 0 && headers.length === input.grid.headers.length && headers.every((h, i) => h === input.grid?.headers[i]);
  if (!sameShape) return undefined;
  if (input.grid.headers.length > PROPOSAL_MAX_HEADERS || input.grid.headers.some((h) => h.length > PROPOSAL_MAX_HEADER_LENGTH)) {
    return { sheet_id: sheetId, error: `A proposal takes at most ${PROPOSAL_MAX_HEADERS} headers of up to ${PROPOSAL_MAX_HEADER_LENGTH} characters` };
  }
  const baseVersion = input.body.sheet_context?.version;
  const proposal = {
    data: input.grid.rows,
    headers: input.grid.headers,
    // The version the AI saw: the proposal records it (the api refuses one that does not exist).
    ...(baseVersion !== undefined && baseVersion >= 1 ? { base_version: baseVersion } : {}),
  };
  let res: Response;
  try {
    res = await fetch(`${input.apiUrl}/api/v1/sheets/${encodeURIComponent(sheetId)}/versions`, {
      method: 'POST',
      headers: { authorization: input.authorization, 'content-type': 'application/json' },
      body: JSON.stringify(proposal),
      signal: AbortSignal.timeout(PROPOSE_TIMEOUT_MS),
    });
  } catch (err) {
    return { sheet_id: sheetId, error: `The api could not be reached: ${err instanceof Error ? err.message : String(err)}` };
  }
  const text = await res.text();
  // The caller may only view the sheet: its result is not a version of it but a new sheet of
  // theirs (issue 18), which the panel makes as for a grid of another shape.
  if (res.status === 403 && ErrorBodySchema.safeParse(safeJson(text)).data?.error.message === ACCESS_TEXTS.viewOnly) return undefined;
  if (!res.ok) return { sheet_id: sheetId, error: `HTTP ${res.status}: ${text}` };
  const entry = SheetVersionEntrySchema.safeParse(safeJson(text));
  if (!entry.success) return { sheet_id: sheetId, error: `The api's reply is not a version entry: ${text.slice(0, 200)}` };
  return { sheet_id: sheetId, version_id: entry.data.version_id, status: 'proposed', base_version: entry.data.base_version };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The response with merge_timeline's snapshot when the call made one (a successful response with a grid). */
export async function withSnapshot(
  response: HybridResponse,
  call: Pick<MergeTimelineInput, 'apiUrl' | 'authorization' | 'body'>,
): Promise<HybridResponse> {
  if (!response.success) return response;
  const grid = response.handsontable_data?.spreadsheet_data;
  const snapshot = await mergeTimeline({ ...call, grid });
  return snapshot ? { ...response, snapshot } : response;
}
