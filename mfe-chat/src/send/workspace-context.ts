import { AI_CONVERSATION_CONTEXT, AI_SAMPLE_ROWS, sheetCells, type ConversationTurn, type SelectedFunction, type ShellContext, type WorkspaceContext } from '@tessera/contracts';
import type { ChatMessage } from '../messages/chat-message.js';

/**
 * Workspace context (spec 02 §3) from what the shell reports: the open sheet with its first rows
 * and selected cell, the git files and functions chosen. Only those rows are read: a windowed
 * sheet (issue 23) is not read whole for the AI_SAMPLE_ROWS rows the model is shown.
 */
export async function buildWorkspaceContext(sheet: ShellContext['sheet'], gitFiles: string[], functions: SelectedFunction[] = []): Promise<WorkspaceContext> {
  const selection = sheet.selection;
  const [rows, selectedRow] = await Promise.all([
    sheetCells(sheet, { start: 0, count: AI_SAMPLE_ROWS }),
    selection ? sheetCells(sheet, { start: selection.row, count: 1 }) : null,
  ]);
  const sample = rows ?? [];
  return {
    current_sheet: sheet.id
      ? {
          id: sheet.id,
          ...(sheet.name !== null ? { name: sheet.name } : {}),
          headers: sheet.headers,
          selected_cells: selection ? [{ row: selection.row, col: selection.col, value: selectedRow?.[0]?.[selection.col] ?? null }] : [],
          total_rows: sheet.size.rows,
          total_columns: sheet.size.cols,
          sample_rows: sample.slice(0, AI_SAMPLE_ROWS),
        }
      : null,
    git_context: { selected_files: gitFiles },
    ...(functions.length ? { selected_functions: functions } : {}),
  };
}

/** The last AI_CONVERSATION_CONTEXT messages (spec 02 §9), oldest first, without the pending ones. */
export function conversationContext(messages: ChatMessage[]): ConversationTurn[] {
  return messages
    .filter((m) => !m.pending && !m.streaming && m.content !== '')
    .slice(-AI_CONVERSATION_CONTEXT)
    .map((m) => ({ role: m.role, content: m.content, timestamp: m.createdAt }));
}
