import { hybridSheetRows, type HybridForwardRequest, type ScheduleOptimization, type ShellContext } from '@tessera/contracts';

export interface HybridRequestInput {
  prompt: string;
  /** Python to run (Agent • Direct Exec); AI Powered writes its own. */
  code?: string;
  aiGeneration: boolean;
  streaming: boolean;
  gitFiles: string[];
  sessionId: string | null;
  /** False while AI editing mode is on: the panel makes the proposal itself. */
  mergeTimeline: boolean;
  /** A schedule problem to solve as it is (parameters.optimization). */
  optimization?: ScheduleOptimization;
}

/**
 * The body of POST /hybrid/forward (spec 02 §7) from the open sheet as the shell reports it:
 * its id, name, headers, size, version and cells (a windowed sheet's read through the api,
 * issue 23), the selected cell and the git files of the context area. Rejects, before reading,
 * a sheet past the route's cell limit (HYBRID_MAX_CELLS), with the route's text.
 */
export async function buildHybridRequest(sheet: ShellContext['sheet'], input: HybridRequestInput): Promise<HybridForwardRequest & { sheet_context?: { selected_cells?: { row: number; col: number }[] } }> {
  const rows = await hybridSheetRows(sheet);
  const sheetId = sheet.id ?? undefined;
  return {
    problem: input.prompt,
    instruction: input.prompt,
    ...(input.code !== undefined ? { code: input.code } : {}),
    files: input.gitFiles,
    enable_ai_generation: input.aiGeneration,
    ...(input.optimization ? { parameters: { optimization: input.optimization } } : {}),
    sheet_context: {
      ...(sheetId ? { id: sheetId } : {}),
      ...(sheet.name !== null ? { name: sheet.name } : {}),
      headers: sheet.headers,
      rowCount: sheet.size.rows,
      columnCount: sheet.size.cols,
      ...(sheet.version !== null ? { version: sheet.version } : {}),
      ...(sheet.selection ? { selected_cells: [sheet.selection] } : {}),
    },
    handsontable_data: { spreadsheet_data: { headers: sheet.headers, rows } },
    ...(input.sessionId ? { session_id: input.sessionId } : {}),
    stream_mode: input.streaming,
    ...(sheetId ? { sheet_id: sheetId, merge_timeline: input.mergeTimeline } : {}),
  };
}

/** A fenced code block of the message (```python ... ```), else null. */
export function fencedCode(prompt: string): string | null {
  const match = /```[\w+-]*[^\S\n]*\n([\s\S]*?)```/.exec(prompt);
  return match ? match[1] : null;
}
