import {
  type CodeRunFigure,
  HybridResponseSchema,
  changedCells,
  createResultSheet,
  describeError,
  gridToOperations,
  hybridSheetRows,
  normalizeHeaders,
  sendOperations,
  sheetCells,
  type GridData,
  type HybridForwardRequest,
  type HybridResponse,
  type ResultGrid,
  type ShellContext,
} from '@tessera/contracts';

/** What a run came to, as the Code tab shows it. */
export type RunOutcome =
  | { kind: 'done'; output: string; placed: Placement; figures: Figures }
  | { kind: 'failed'; output: string; error: string };

/** The figures the code made (Matplotlib PNGs, issue 19), in order, and how many were left out. */
export interface Figures {
  list: CodeRunFigure[];
  omitted: number;
}

/** Where the result grid went. */
export type Placement =
  | { kind: 'none' }
  | { kind: 'sheet'; cells: number; sent: Promise<void> }
  | { kind: 'new-sheet'; name: string }
  | { kind: 'not-placed'; reason: string };

/** Spec 02 §5: an agent-mode run with no instruction has this one. */
const DIRECT_EXEC_INSTRUCTION = 'Execute the code directly';

/** Run on sheet can run: a sheet is loaded and the open file is Python. */
export const canRunOnSheet = (shell: ShellContext, path: string | null) => shell.sheet.id !== null && shell.sheet.name !== null && !!path?.endsWith('.py');

/**
 * The Direct Exec request (ai-middleware README): the code, on the current sheet's headers and
 * rows (a windowed sheet's read through the api, issue 23; one past the route's cell limit is
 * refused before it is read).
 */
export async function directExecRequest(shell: ShellContext, code: string): Promise<HybridForwardRequest> {
  const rows = await hybridSheetRows(shell.sheet);
  const headers = normalizeHeaders(shell.sheet.headers, shell.sheet.size.cols);
  return {
    problem: DIRECT_EXEC_INSTRUCTION,
    code,
    enable_ai_generation: false,
    sheet_id: shell.sheet.id ?? undefined,
    // The result is placed here (DESIGN.md § Where an AI result goes), not merged into the timeline by the middleware.
    merge_timeline: false,
    stream_mode: false,
    sheet_context: {
      ...(shell.sheet.id ? { id: shell.sheet.id } : {}),
      ...(shell.sheet.name ? { name: shell.sheet.name } : {}),
      headers,
      rowCount: shell.sheet.size.rows,
      columnCount: shell.sheet.size.cols,
      ...(shell.sheet.version !== null ? { version: shell.sheet.version } : {}),
    },
    handsontable_data: { spreadsheet_data: { headers, rows } },
  };
}

/** The reply's result grid: grid_update, else handsontable_data. */
function resultGrid(reply: HybridResponse): ResultGrid | null {
  if (!reply.has_grid) return null;
  if (reply.grid_update) return { headers: reply.grid_update.headers, rows: reply.grid_update.rows };
  const data = reply.handsontable_data?.spreadsheet_data;
  return data ? { headers: data.headers, rows: data.rows } : null;
}

const sameHeaders = (a: string[], b: string[]) => a.length === b.length && a.every((h, i) => h === b[i]);

/**
 * 'Run on sheet' (issue 9): sends the code to POST /hybrid/forward (Agent • Direct Exec) with
 * the current sheet, and puts the result grid where DESIGN.md says: a grid with the sheet's
 * headers goes to the sheet as live operations; another shape becomes a new sheet when auto
 * sheet creation is on.
 */
export async function runOnSheet(shell: ShellContext, code: string): Promise<RunOutcome> {
  let reply: HybridResponse;
  try {
    const { data } = await shell.ai.post<unknown>('/hybrid/forward', await directExecRequest(shell, code));
    reply = HybridResponseSchema.parse(data);
  } catch (error) {
    return { kind: 'failed', output: '', error: describeError(error) };
  }
  if (!reply.success) return { kind: 'failed', output: reply.execution_output, error: reply.error ?? reply.message };

  const figures: Figures = { list: reply.figures ?? [], omitted: reply.figures_omitted ?? 0 };
  const grid = resultGrid(reply);
  const sheetId = shell.sheet.id;
  if (!grid || !sheetId) return { kind: 'done', output: reply.execution_output, figures, placed: { kind: 'none' } };

  if (sameHeaders(grid.headers, normalizeHeaders(shell.sheet.headers, shell.sheet.size.cols))) {
    // The grid read now is at the version held now: the operations carry it as their base_version
    // (rows inserted or removed meanwhile by others do not shift the result).
    const baseVersion = shell.sheet.version;
    let current: GridData;
    try {
      // The sheet's real cells, a windowed one's read through the api (issue 23).
      current = (await sheetCells(shell.sheet)) ?? [];
    } catch (error) {
      return { kind: 'done', output: reply.execution_output, figures, placed: { kind: 'not-placed', reason: describeError(error) } };
    }
    const ops = gridToOperations(current, grid.rows, grid.headers.length);
    // The shell tells this tab's Workspace each acknowledged operation: the grid shows the result.
    const sent = sendOperations(shell.live, ops, baseVersion).then(() => undefined);
    return { kind: 'done', output: reply.execution_output, figures, placed: { kind: 'sheet', cells: changedCells(ops), sent } };
  }

  if (!shell.flags.autoSheetCreation) return { kind: 'done', output: reply.execution_output, figures, placed: { kind: 'none' } };
  try {
    const created = await createResultSheet(shell, grid);
    return { kind: 'done', output: reply.execution_output, figures, placed: { kind: 'new-sheet', name: created.name } };
  } catch (error) {
    return { kind: 'done', output: reply.execution_output, figures, placed: { kind: 'not-placed', reason: describeError(error) } };
  }
}
