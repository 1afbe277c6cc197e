import {
  MAX_SOLVER_RETRIES,
  solverFailedMessage,
  type HybridReply,
  type RollbackOption,
  type ScheduleProblem,
  type ScheduleRun,
  type SolverStatus,
} from '@tessera/contracts';
import { createStore } from 'zustand';

/** The solve that exceeded its retries: what the Operation Failed panel shows and what Retry starts from. */
export interface FailedSolve {
  message: string;
  suggestedActions: string[];
  rollback: RollbackOption | null;
  /** The failed run (its problem and the level it ended at); null when the reply carried none. */
  run: ScheduleRun | null;
}

/** The last problem model that solved, and at which relaxation level (spec 02 §4: what rollback goes back to). */
export interface SolvedModel {
  problem: ScheduleProblem;
  level: number;
  status: SolverStatus;
}

/** The active sheet's version from before the AI's last change to it. */
export interface SheetBefore {
  sheetId: string;
  version: number;
}

export interface SolverState {
  /** The badge's status; null before any solve and after Reset Session. */
  status: SolverStatus | null;
  failure: FailedSolve | null;
  lastSolved: SolvedModel | null;
  before: SheetBefore | null;
  /** A recovery action is running. */
  busy: boolean;
  /** The chat panel is waiting for a reply: a retry (a turn of that chat) must wait for it. */
  chatReplying: boolean;
}

const initial: SolverState = { status: null, failure: null, lastSolved: null, before: null, busy: false, chatReplying: false };

/**
 * The solver state of the page (spec 02 §2, §4 Solver), shared like editing-mode.store.ts by
 * the modules of this remote: ChatPanel writes it as replies arrive, ./HeaderStatus shows the
 * badge and ./RecoveryBanner the Operation Failed panel.
 */
export const solverStore = createStore<SolverState>()(() => initial);

/** A stream event's solver status: the badge follows the solve as it retries. */
export function setSolverStatus(status: SolverStatus): void {
  solverStore.setState({ status });
}

/**
 * A final reply: its solver status, and whether it failed after the maximum retries (the
 * recovery panel opens) or solved (it becomes the model rollback returns to). Replies that
 * did not solve anything leave the state as it was.
 */
export function recordSolverReply(reply: HybridReply): void {
  const status = reply.solver_status ?? null;
  if (!status && !reply.schedule && !reply.retry_exceeded) return;
  if (reply.retry_exceeded) {
    solverStore.setState({
      status: status ?? { working_status: 'failed', retry_count: MAX_SOLVER_RETRIES, max_retries: MAX_SOLVER_RETRIES },
      failure: {
        message: solverFailedMessage(MAX_SOLVER_RETRIES),
        suggestedActions: reply.suggested_actions ?? [],
        rollback: reply.rollback_option ?? null,
        run: reply.schedule ?? null,
      },
    });
    return;
  }
  const solved = reply.backend_solver?.result?.success === true || status?.working_status === 'success';
  solverStore.setState((s) => ({
    status: status ?? s.status,
    failure: null,
    lastSolved:
      solved && reply.schedule
        ? {
            problem: reply.schedule.problem,
            level: reply.schedule.relaxation_level,
            status: status ?? { working_status: 'success', retry_count: reply.schedule.relaxation_level, max_retries: MAX_SOLVER_RETRIES },
          }
        : s.lastSolved,
  }));
}

/** Called when a reply's result is applied to the active sheet: the version it had before. */
export function recordSheetBefore(before: SheetBefore): void {
  solverStore.setState({ before });
}

/** Clears the response: the Operation Failed panel closes. */
export function clearSolverResponse(): void {
  solverStore.setState({ failure: null });
}

/** Reset Session: the whole solver state goes (the badge hides); whether the chat is replying is not solver state. */
export function resetSolverState(): void {
  solverStore.setState((s) => ({ ...initial, chatReplying: s.chatReplying }));
}

/** The chat panel tells when it starts and stops waiting for a reply. */
export function setChatReplying(chatReplying: boolean): void {
  solverStore.setState({ chatReplying });
}

export function setSolverBusy(busy: boolean): void {
  solverStore.setState({ busy });
}
