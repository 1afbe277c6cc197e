import {
  HISTORY_PAGE_SIZE,
  RECOVERY_TEXTS,
  SCHEDULE_MAX_RELAXATION_LEVEL,
  SheetHistorySchema,
  VersionTransitionResultSchema,
  describeError,
  relaxationText,
  type ShellContext,
} from '@tessera/contracts';
import { discardEditing, editingMode } from '../editing-mode/editing-mode.store.js';
import { createChatStore } from '../messages/chat.store.js';
import { createChatSender, type SendRequest } from '../send/chat-sender.js';
import { chatBridge } from './chat-bridge.js';
import { clearSolverResponse, resetSolverState, setSolverBusy, solverStore, type SheetBefore, type SolvedModel } from './solver.store.js';

/**
 * The Operation Failed panel's three choices (spec 02 §2, §4 Solver: "Reset or rollback
 * discards any active AI edit and clears the response; retry clears the response").
 */

const sheetPath = (sheetId: string) => `/api/v1/sheets/${encodeURIComponent(sheetId)}`;

/** The next relaxation level of the failed run, or null when there is none (no run, or already the last level). */
export function nextRelaxationLevel(): number | null {
  const run = solverStore.getState().failure?.run;
  if (!run || run.relaxation_level >= SCHEDULE_MAX_RELAXATION_LEVEL) return null;
  return run.relaxation_level + 1;
}

/**
 * Retry with Simpler Requirements: the failed problem solved again at once, one relaxation
 * level further, as a turn of the chat (POST /hybrid/forward with parameters.optimization), so
 * the chat shows it and the badge follows it. Its sheet is a '-retry' one (manual_retry).
 */
export async function retryWithSimplerRequirements(shell: ShellContext): Promise<void> {
  const run = solverStore.getState().failure?.run;
  const level = nextRelaxationLevel();
  const bridge = chatBridge();
  // One request at a time: the chat panel says when it waits for a reply (ChatPanel → chatReplying).
  if (!run || level === null || solverStore.getState().chatReplying) return;
  const request: SendRequest = {
    prompt: `${RECOVERY_TEXTS.retry}: ${relaxationText(level) || `relaxation level ${level}`}`,
    mode: 'agent-direct',
    optimization: { kind: 'schedule', problem: run.problem, relaxation_level: level, manual_retry: true },
  };
  clearSolverResponse();
  if (bridge) {
    await bridge.send(request);
    return;
  }
  // The chat panel is hidden: the same sender, its turn kept out of sight; the badge and the new sheet still follow.
  const sender = createChatSender(() => shell, createChatStore(), () => ({ streaming: false, gitFiles: [], functions: [], sessionId: null }));
  await sender.send(request);
}

/** Finds a committed version's id in the sheet's history (newest first, a page at a time). */
async function findVersion(shell: ShellContext, before: SheetBefore) {
  for (let offset = 0; ; offset += HISTORY_PAGE_SIZE) {
    const { data } = await shell.api.get<unknown>(`${sheetPath(before.sheetId)}/history`, { params: { limit: HISTORY_PAGE_SIZE, offset } });
    const history = SheetHistorySchema.parse(data);
    const entry = history.versions.find((v) => v.version === before.version && v.status !== 'proposed');
    if (entry) return entry;
    const committed = history.versions.filter((v) => v.version !== null);
    const oldest = committed.at(-1)?.version ?? null;
    // Past it (it was pruned or discarded), or at the end of the history.
    if ((oldest !== null && oldest < before.version) || offset + HISTORY_PAGE_SIZE >= history.count || history.versions.length === 0) return null;
  }
}

/** Checks out the version from before the AI's last change; says what happened. */
async function restoreBefore(shell: ShellContext, before: SheetBefore): Promise<string> {
  const entry = await findVersion(shell, before);
  if (!entry) return `version ${before.version} of the sheet is no longer in its history, so the sheet was left as it is`;
  if (entry.status === 'live') return `the sheet already is at version ${before.version}`;
  const { data } = await shell.api.post<unknown>(`${sheetPath(before.sheetId)}/versions/${encodeURIComponent(entry.version_id)}/checkout`, {});
  const result = VersionTransitionResultSchema.parse(data);
  // After a checkout everyone on the sheet reloads it (spec 02 §4), as the version preview's Apply does.
  if (shell.sheet.id === before.sheetId) shell.live.requestReload();
  shell.bus.emit('sheet-history-refresh', { sheetId: before.sheetId });
  return `restored the sheet to version ${before.version} (now live as version ${result.version})`;
}

function describeModel(model: SolvedModel): string {
  const { problem, level } = model;
  const relaxed = level > 0 ? `, relaxation level ${level}` : '';
  return `back to the last schedule model that solved (${problem.staff.length} staff over ${problem.horizon.days} days${relaxed})`;
}

/** Discards the AI edit or proposal staged in AI Editing Mode; says so when there was one. */
async function discardActiveEdit(shell: ShellContext): Promise<string | null> {
  const { sheetId, staged } = editingMode.getState();
  if (sheetId === null) return null;
  await discardEditing(shell);
  const failed = editingMode.getState().error;
  if (failed) throw new Error(failed);
  return staged ? 'discarded the staged AI edit' : 'left AI Editing Mode';
}

/**
 * Rollback: the active AI edit or proposal is discarded, the sheet goes back to its version
 * from before the AI's last change, and the solver to the last problem model that solved
 * (success, if one did); the response is cleared and the chat says what was done.
 */
export async function rollback(shell: ShellContext): Promise<void> {
  if (solverStore.getState().busy) return;
  setSolverBusy(true);
  const done: string[] = [];
  try {
    const discarded = await discardActiveEdit(shell);
    if (discarded) done.push(discarded);
    const { before, lastSolved } = solverStore.getState();
    if (before) done.push(await restoreBefore(shell, before));
    solverStore.setState({ status: lastSolved?.status ?? null, failure: null, before: null, busy: false });
    done.push(lastSolved ? describeModel(lastSolved) : 'no schedule had solved before, so the solver status is cleared');
    chatBridge()?.say(`**${RECOVERY_TEXTS.rollback}**: ${done.join('; ')}.`);
  } catch (error) {
    setSolverBusy(false);
    chatBridge()?.say(`Error: ${RECOVERY_TEXTS.rollback} failed: ${describeError(error)}`);
  }
}

/** Reset Session: the active AI edit is discarded, the response and the whole solver state cleared (the badge hides). */
export async function resetSession(shell: ShellContext): Promise<void> {
  if (solverStore.getState().busy) return;
  setSolverBusy(true);
  try {
    await discardActiveEdit(shell);
    resetSolverState();
  } catch (error) {
    setSolverBusy(false);
    chatBridge()?.say(`Error: ${RECOVERY_TEXTS.reset} failed: ${describeError(error)}`);
  }
}
