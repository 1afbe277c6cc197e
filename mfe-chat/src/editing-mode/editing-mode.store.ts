import { SheetVersionEntrySchema, VersionTransitionResultSchema, describeError, type CellValue, type ShellContext } from '@tessera/contracts';
import { createStore } from 'zustand';
import { recordSheetBefore } from '../solver/solver.store.js';

/** The staged edit: a proposed version of the sheet (DESIGN.md § Where an AI result goes). */
export interface StagedEdit {
  sheetId: string;
  versionId: string;
}

export interface EditingModeState {
  /** AI Editing Mode is on for this sheet. */
  sheetId: string | null;
  /** The sheet's version when the mode was switched on: the original that Discard keeps. */
  originalVersion: number | null;
  staged: StagedEdit | null;
  busy: boolean;
  error: string | null;
}

const initial: EditingModeState = { sheetId: null, originalVersion: null, staged: null, busy: false, error: null };

/**
 * AI Editing Mode (spec 02 §4), shared by the chat panel (which switches it on and stages
 * results) and ./HeaderStatus (the badge with Commit and Discard): both are modules of this
 * remote, so they share this one store in the page.
 */
export const editingMode = createStore<EditingModeState>()(() => initial);

export const isEditing = (state: EditingModeState, sheetId: string | null): boolean => sheetId !== null && state.sheetId === sheetId;

const versionsPath = (sheetId: string) => `/api/v1/sheets/${encodeURIComponent(sheetId)}/versions`;

/** The shell of the sheet in AI Editing Mode: its live sync is paused and its grid previews the staged edit. */
let editingShell: ShellContext | null = null;

/** Switches the mode on: live sync of the sheet pauses (remote operations are kept, not lost) until it ends. */
export function startEditing(shell: ShellContext, sheetId: string, version: number | null): void {
  leaveEditing();
  editingShell = shell;
  shell.live.pause();
  editingMode.setState({ ...initial, sheetId, originalVersion: version });
}

/** Ends the mode without touching the server: the grid leaves the staged edit's preview and live sync resumes. */
export function leaveEditing(): void {
  const shell = editingShell;
  const { sheetId, staged } = editingMode.getState();
  editingShell = null;
  editingMode.setState(initial);
  if (!shell) return;
  if (staged && sheetId) shell.bus.emit('sheet-version-preview', { sheetId, versionId: null });
  shell.live.resume();
}

/** Makes `rows` a proposed version of the sheet and stages it, replacing (discarding) an earlier staged one. */
export async function proposeEdit(shell: ShellContext, sheetId: string, headers: string[], rows: CellValue[][]): Promise<StagedEdit> {
  const { data } = await shell.api.post<unknown>(versionsPath(sheetId), { headers, data: rows });
  const entry = SheetVersionEntrySchema.parse(data);
  return stageEdit(shell, { sheetId, versionId: entry.version_id });
}

/** Stages a proposal the ai-middleware already made (merge_timeline), replacing an earlier one. */
export async function stageEdit(shell: ShellContext, edit: StagedEdit): Promise<StagedEdit> {
  const previous = editingMode.getState().staged;
  editingMode.setState({ staged: edit, error: null });
  if (previous && previous.versionId !== edit.versionId) {
    await shell.api.post(`${versionsPath(previous.sheetId)}/${encodeURIComponent(previous.versionId)}/discard`, {}).catch(() => undefined);
  }
  shell.bus.emit('sheet-proposal', { sheetId: edit.sheetId, versionId: edit.versionId });
  // The staged edit shows in the grid, read-only with its differences (the Workspace's version preview).
  shell.bus.emit('sheet-version-preview', { sheetId: edit.sheetId, versionId: edit.versionId, staged: true });
  return edit;
}

/** Commit: the staged edit is accepted (a new live version); the mode ends and sync resumes. */
export async function commitEditing(shell: ShellContext): Promise<void> {
  const { staged } = editingMode.getState();
  if (!staged) {
    leaveEditing();
    return;
  }
  editingMode.setState({ busy: true, error: null });
  try {
    const { data } = await shell.api.post<unknown>(`${versionsPath(staged.sheetId)}/${encodeURIComponent(staged.versionId)}/accept`, {});
    const result = VersionTransitionResultSchema.parse(data);
    // The AI's change is applied now: Rollback restores the live version it was accepted on.
    recordSheetBefore({ sheetId: staged.sheetId, version: result.version - 1 });
    leaveEditing();
    shell.bus.emit('sheet-snapshot-merged', { sheetId: staged.sheetId, version: result.version });
    shell.bus.emit('sheet-updated', { sheetId: staged.sheetId, version: result.version });
    shell.bus.emit('sheet-history-refresh', { sheetId: staged.sheetId });
  } catch (error) {
    editingMode.setState({ busy: false, error: describeError(error) });
  }
}

/** Discard: the staged edit is discarded, the original stays; the mode ends and sync resumes. */
export async function discardEditing(shell: ShellContext): Promise<void> {
  const { staged } = editingMode.getState();
  if (!staged) {
    leaveEditing();
    return;
  }
  editingMode.setState({ busy: true, error: null });
  try {
    await shell.api.post(`${versionsPath(staged.sheetId)}/${encodeURIComponent(staged.versionId)}/discard`, {});
    leaveEditing();
    shell.bus.emit('sheet-history-refresh', { sheetId: staged.sheetId });
  } catch (error) {
    editingMode.setState({ busy: false, error: describeError(error) });
  }
}
