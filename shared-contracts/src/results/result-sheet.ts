import {
  AI_SHEET_BASE_NAME,
  CHAT_SHEET_EXTRA_ROWS,
  CHAT_SHEET_MIN_SIZE,
  CHAT_SHEET_POPULATE_DELAY_MS,
  CREATE_SHEET_EMPTY_ID,
  SCHEDULE_SHEET_BASE_NAME,
} from '../ai/chat-panel.schema.js';
import { SheetSummarySchema, type CellValue } from '../sheets/sheet.schema.js';
import type { ShellContext } from '../shell/shell-context.js';
import type { ResultGrid } from './result-grid.js';
import { RETRY_SHEET_SUFFIX, SCHEDULE_ORIGINS } from '../schedule/schedule-result.schema.js';

/** The schedule shape of spec 02 §5: a doctor id or name column. */
export const looksLikeSchedule = (headers: string[]): boolean => headers.some((h) => /doctor[\s_-]*(id|name)/i.test(h));

const two = (n: number) => String(n).padStart(2, '0');
/** Spec 02 §9: the HH-MM-SS suffix (':' is not allowed in sheet names). */
export const timeSuffix = (at: Date): string => `${two(at.getHours())}-${two(at.getMinutes())}-${two(at.getSeconds())}`;

/** 'Schedule 14-03-22' or 'AI Generated Sheet 14-03-22'; a manual retry's schedule ends in '-retry' (spec 02 §9). */
export function chatSheetName(grid: ResultGrid, at: Date, options: ResultSheetOptions = {}): string {
  const schedule = looksLikeSchedule(grid.headers);
  const suffix = schedule && options.manualRetry ? RETRY_SHEET_SUFFIX : '';
  return `${schedule ? SCHEDULE_SHEET_BASE_NAME : AI_SHEET_BASE_NAME} ${timeSuffix(at)}${suffix}`;
}

export interface ResultSheetOptions {
  /** The grid came from 'Retry with Simpler Requirements': origin schedule_manual_retry and the '-retry' suffix. */
  manualRetry?: boolean;
}

/** Spec 02 §9: result rows + 5, at least 20; the result's columns, at least 10. */
export function chatSheetSize(grid: ResultGrid): { rows: number; columns: number } {
  const width = Math.max(grid.headers.length, ...grid.rows.map((r) => r.length));
  return {
    rows: Math.max(CHAT_SHEET_MIN_SIZE.rows, grid.rows.length + CHAT_SHEET_EXTRA_ROWS),
    columns: Math.max(CHAT_SHEET_MIN_SIZE.columns, width),
  };
}

/** The grid padded with empty cells to the sheet's size. */
function paddedRows(grid: ResultGrid, size: { rows: number; columns: number }): CellValue[][] {
  return Array.from({ length: size.rows }, (_, r) => Array.from({ length: size.columns }, (_, c) => grid.rows[r]?.[c] ?? null));
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates a sheet for an AI or code result of another shape than the active sheet (DESIGN.md
 * § Where an AI result goes; used by the chat panel and the Code tab's 'Run on sheet'):
 * announced with 'create-sheet-from-chat', created with its name and size, populated 500 ms
 * later (spec 02 §4), then announced with 'sheet-created' (the navigator reloads its tree).
 */
export async function createResultSheet(
  shell: ShellContext,
  grid: ResultGrid,
  at = new Date(),
  options: ResultSheetOptions = {},
): Promise<{ id: string; name: string; rows: number; columns: number }> {
  const schedule = looksLikeSchedule(grid.headers);
  const name = chatSheetName(grid, at, options);
  const size = chatSheetSize(grid);
  const origin = schedule ? (options.manualRetry ? SCHEDULE_ORIGINS.manualRetry : SCHEDULE_ORIGINS.auto) : 'ai';
  shell.bus.emit('create-sheet-from-chat', { name, headers: grid.headers, rows: grid.rows, origin });
  const lastAIUpdate = at.toISOString();
  const { data } = await shell.api.post<unknown>('/api/v1/sheets', {
    name,
    metadata: { rows: size.rows, columns: size.columns, origin, lastAIUpdate, grid_rows: grid.rows.length, grid_cols: grid.headers.length },
  });
  const created = SheetSummarySchema.parse(data);
  if (!created.id) throw new Error(CREATE_SHEET_EMPTY_ID);
  await wait(CHAT_SHEET_POPULATE_DELAY_MS);
  const { data: saved } = await shell.api.put<unknown>(`/api/v1/sheets/${created.id}`, {
    headers: grid.headers,
    data: paddedRows(grid, size),
    metadata: { lastAIUpdate },
  });
  SheetSummarySchema.pick({ id: true }).parse(saved);
  shell.bus.emit('sheet-created', { sheetId: created.id, name: created.name });
  return { id: created.id, name: created.name, ...size };
}
