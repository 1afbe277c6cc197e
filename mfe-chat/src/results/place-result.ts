import {
  ACCESS_TEXTS,
  AI_CHART_TEXTS,
  type AiChart,
  ChartsResultSchema,
  aiChartOptions,
  SharingStateSchema,
  VersionTransitionResultSchema,
  meetsAccess,
  describeError,
  errorCreatingScheduleSheet,
  hybridReplyGrid,
  changedCells,
  createResultSheet,
  gridHash,
  gridToOperations,
  hasSheetHeaders,
  looksLikeSchedule,
  sendOperations,
  sheetCells,
  type GridData,
  type HybridReply,
  type ResultGrid,
  type ShellContext,
} from '@tessera/contracts';
import { editingMode, isEditing, proposeEdit, stageEdit } from '../editing-mode/editing-mode.store.js';
import type { ChartRef, CreatedSheetRef } from '../messages/chat-message.js';
import { recordSheetBefore } from '../solver/solver.store.js';

/** What became of a reply's result, told under the reply. */
export interface PlacedResult {
  note: string | null;
  createdSheet?: CreatedSheetRef;
  /** The chart the AI made (on the sheet, or on the result's new sheet). */
  chart?: ChartRef;
  error?: boolean;
}

/** Grids already made into sheets in this page: the same grid is not created twice (spec 02 §4). */
const usedHashes = new Set<string>();

const STAGED_NOTE = 'Staged as a proposed version: **Commit** or **Discard** it with the AI Editing Mode badge in the header.';
const versionsPath = (sheetId: string, versionId: string) =>
  `/api/v1/sheets/${encodeURIComponent(sheetId)}/versions/${encodeURIComponent(versionId)}`;

/**
 * Puts a reply's result where DESIGN.md § Where an AI result goes says: a grid with the
 * active sheet's headers updates that sheet (staged as a proposal while AI Editing Mode is
 * on); a grid of another shape becomes a new sheet when auto sheet creation is on. A reply
 * whose result the ai-middleware already merged (merge_timeline → snapshot) is not applied
 * again: its proposal is accepted (or staged), and the sheet's live frames bring it.
 */
export async function placeResult(shell: ShellContext, reply: HybridReply): Promise<PlacedResult> {
  const placed = await placeGrid(shell, reply);
  return reply.chart ? placeChart(shell, reply.chart, placed) : placed;
}

/**
 * The chart of a reply (issue 20): one over the active sheet was made by the ai-middleware (or
 * refused, with the api's text); one over the result is made now on the sheet just created of it,
 * through the api's chart route (the user owns that sheet). The message links to the chart.
 */
async function placeChart(shell: ShellContext, chart: AiChart, placed: PlacedResult): Promise<PlacedResult> {
  const notMade = (reason: string): PlacedResult => ({ ...placed, note: [placed.note, AI_CHART_TEXTS.notMade(reason)].filter(Boolean).join(' ') });
  if (chart.error) return notMade(chart.error);
  const title = chart.request.title || AI_CHART_TEXTS.untitled;
  if (chart.request.target === 'sheet') {
    return chart.sheet_id && chart.chart_id ? { ...placed, chart: { sheetId: chart.sheet_id, chartId: chart.chart_id, title } } : placed;
  }
  const sheet = placed.createdSheet;
  if (!sheet) return placed;
  try {
    const { data } = await shell.api.post<unknown>(`/api/v1/sheets/${encodeURIComponent(sheet.id)}/charts`, aiChartOptions(chart.request));
    const made = ChartsResultSchema.parse(data);
    return made.chart ? { ...placed, chart: { sheetId: sheet.id, chartId: made.chart.id, title } } : placed;
  } catch (error) {
    return notMade(describeError(error));
  }
}

async function placeGrid(shell: ShellContext, reply: HybridReply): Promise<PlacedResult> {
  const sheetId = shell.sheet.id;
  const sheetName = shell.sheet.name ?? 'the sheet';
  const found = hybridReplyGrid(reply);
  const grid: ResultGrid | null = found && reply.has_grid !== false ? found : null;
  const sameShape = !!grid && !!sheetId && hasSheetHeaders(grid, shell.sheet.headers);
  // A result for a sheet the user may only view is not applied to it (the server would refuse
  // it anyway): it becomes a new sheet of theirs, as a grid of another shape does (issue 18).
  const viewOnly = sameShape && !!sheetId && !(reply.snapshot?.version_id || reply.snapshot?.version !== undefined) && (await onlyViews(shell, sheetId));
  const transform = sameShape && !viewOnly;
  const editing = isEditing(editingMode.getState(), sheetId);
  const snapshot = reply.snapshot ?? null;
  // The version Rollback restores (spec 02 §2 Operation Failed panel): the sheet as it was before this change.
  const versionBefore = shell.sheet.version;
  const recordBefore = (version: number | null | undefined = versionBefore) => {
    if (sheetId && version != null && version > 0) recordSheetBefore({ sheetId, version });
  };

  if (snapshot && !snapshot.error && sheetId && (snapshot.sheet_id ?? sheetId) === sheetId) {
    if (snapshot.version_id && snapshot.version === undefined) {
      if (transform || !grid) {
        if (editing) {
          await stageEdit(shell, { sheetId, versionId: snapshot.version_id });
          return { note: STAGED_NOTE };
        }
        try {
          const { data } = await shell.api.post<unknown>(`${versionsPath(sheetId, snapshot.version_id)}/accept`, {});
          const { version } = VersionTransitionResultSchema.parse(data);
          // The accept made one new version on top of the live one.
          recordBefore(version - 1);
          shell.bus.emit('sheet-snapshot-received', { sheetId, version });
          shell.bus.emit('sheet-snapshot-merged', { sheetId, version });
          shell.bus.emit('sheet-history-refresh', { sheetId });
          return { note: `Applied to **${sheetName}** as version ${version}.` };
        } catch (error) {
          const reason = describeError(error);
          shell.bus.emit('sheet-snapshot-merge-error', { sheetId, error: reason });
          return { note: `Error: ${reason}`, error: true };
        }
      }
      // Another shape than the sheet: its proposal is not what the user asked for; a new sheet is.
      await shell.api.post(`${versionsPath(sheetId, snapshot.version_id)}/discard`, {}).catch(() => undefined);
    } else if (snapshot.version !== undefined) {
      // The middleware already merged it: the version before is the one it was based on.
      recordBefore(snapshot.base_version ?? snapshot.version - 1);
      shell.bus.emit('sheet-snapshot-received', { sheetId, version: snapshot.version });
      shell.bus.emit('sheet-snapshot-merged', { sheetId, version: snapshot.version });
      return { note: `Merged into **${sheetName}** as version ${snapshot.version}.` };
    }
  }
  if (snapshot?.error) {
    shell.bus.emit('sheet-snapshot-merge-error', { sheetId: snapshot.sheet_id ?? sheetId ?? '', error: snapshot.error });
  }
  if (!grid) return { note: null };

  if (transform && sheetId) {
    if (editing) {
      await proposeEdit(shell, sheetId, grid.headers, grid.rows);
      return { note: STAGED_NOTE };
    }
    // The grid read now is at the version held now: the operations go with it as their base_version,
    // so rows someone inserts or removes before the server takes them do not shift the result.
    const baseVersion = shell.sheet.version;
    // The sheet's real cells, a windowed one's read through the api (issue 23): an empty grid
    // would make every cell of the result a change.
    let current: GridData;
    try {
      current = (await sheetCells(shell.sheet)) ?? [];
    } catch (error) {
      return { note: `Error: ${describeError(error)}`, error: true };
    }
    const ops = gridToOperations(current, grid.rows, grid.headers.length);
    if (ops.length > 0) recordBefore();
    // The shell tells this tab's Workspace each acknowledged operation: no reload needed.
    void sendOperations(shell.live, ops, baseVersion);
    const cells = changedCells(ops);
    return { note: ops.length === 0 ? `**${sheetName}** already holds this result.` : `Updated **${sheetName}**: ${cells} cell${cells === 1 ? '' : 's'} changed.` };
  }

  if (!shell.flags.autoSheetCreation) return { note: viewOnly ? ACCESS_TEXTS.resultNotApplied(sheetName) : null };
  const hash = gridHash(grid);
  if (usedHashes.has(hash)) return { note: 'This grid was already made into a sheet.' };
  usedHashes.add(hash);
  try {
    // 'Retry with Simpler Requirements' makes a '-retry' sheet with origin schedule_manual_retry (spec 02 §3, §9).
    const sheet = await createResultSheet(shell, grid, new Date(), { manualRetry: reply.schedule?.manual_retry === true });
    const created = `Created sheet **${sheet.name}** (${sheet.rows} rows × ${sheet.columns} cols).`;
    return { note: viewOnly ? `${ACCESS_TEXTS.resultToNewSheet(sheetName)} ${created}` : created, createdSheet: { id: sheet.id, name: sheet.name } };
  } catch (error) {
    usedHashes.delete(hash);
    const reason = describeError(error);
    return {
      note: looksLikeSchedule(grid.headers) ? errorCreatingScheduleSheet(reason) : `❌ Failed to create sheet: ${reason}`,
      error: true,
    };
  }
}

/** Whether the user may only view the sheet (asked of the api; when it cannot tell, the server's own check decides). */
async function onlyViews(shell: ShellContext, sheetId: string): Promise<boolean> {
  try {
    const { data } = await shell.api.get<unknown>(`/api/v1/sheets/${encodeURIComponent(sheetId)}/access`);
    const parsed = SharingStateSchema.safeParse(data);
    return parsed.success && !meetsAccess(parsed.data.access, 'edit');
  } catch {
    return false;
  }
}
