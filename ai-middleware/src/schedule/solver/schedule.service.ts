import {
  MAX_SOLVER_RETRIES,
  SCHEDULE_GRID_EXTRACTION_FAILED,
  SCHEDULE_GRID_SOURCE,
  SCHEDULE_MAX_RELAXATION_LEVEL,
  SCHEDULE_TIME_LIMIT_SECONDS,
  relaxationText,
  relaxedTexts,
  solverFailedMessage,
  type BackendSolver,
  type HybridResponse,
  type ScheduleAttempt,
  type ScheduleOptimization,
  type ScheduleRun,
  type SolverStatus,
} from '@tessera/contracts';
import { gridUpdate } from '../../hybrid/direct-exec.service.js';
import { checkSchedule } from '../check/schedule-checker.js';
import { explainInfeasibility } from '../check/infeasibility.js';
import { formatSchedule, scheduleGrid } from '../check/schedule-format.js';
import { solveAtLevel, type LevelSolve } from './solve-level.js';

/**
 * The schedule solver's one entry point (POST /hybrid/forward with parameters.optimization):
 * solve the problem at the level asked; when no schedule comes out, retry at the next
 * relaxation level, up to MAX_SOLVER_RETRIES retries, saying each through onStatus; after the
 * last, fail with the spec's message, suggested actions and the rollback option. 'Retry with
 * Simpler Requirements' (manual_retry) is one solve at the level given. A schedule is returned
 * only once the independent checker (check/) finds it breaks no hard rule of the level solved.
 * An aborted signal (Stop) terminates the solve and throws its reason.
 */

export type ScheduleReply = Pick<
  HybridResponse,
  | 'success'
  | 'status'
  | 'message'
  | 'error'
  | 'has_grid'
  | 'grid_update'
  | 'handsontable_data'
  | 'langchain_result'
  | 'backend_solver'
  | 'solver_status'
  | 'retry_exceeded'
  | 'suggested_actions'
  | 'rollback_option'
  | 'schedule'
>;

export interface ScheduleHooks {
  signal?: AbortSignal;
  /** Each automatic retry, before it runs: { retrying, n, 3 } and 'Infeasible: retrying (attempt n of 3) with …' (the final status is in the reply). */
  onStatus?: (status: SolverStatus, text: string) => void;
}

export const ROLLBACK_DESCRIPTION =
  "Go back to the last schedule problem that solved, and restore the sheet's version from before the AI's last change.";

export async function solveSchedule(request: ScheduleOptimization, hooks: ScheduleHooks = {}): Promise<ScheduleReply> {
  const { problem } = request;
  const timeLimitSeconds = request.time_limit_seconds ?? SCHEDULE_TIME_LIMIT_SECONDS;
  const attempts: ScheduleAttempt[] = [];
  const retries = request.manual_retry ? 0 : MAX_SOLVER_RETRIES;
  let level = request.relaxation_level;
  let last: LevelSolve | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) {
      if (level >= SCHEDULE_MAX_RELAXATION_LEVEL) break; // nothing left to relax
      level += 1;
      const why = last?.attempt.status === 'time_limit' ? 'No schedule within the time limit' : 'Infeasible';
      hooks.onStatus?.(
        { working_status: 'retrying', retry_count: attempt, max_retries: MAX_SOLVER_RETRIES },
        `${why}: retrying (attempt ${attempt} of ${MAX_SOLVER_RETRIES}) with ${relaxationText(level)}`,
      );
    }
    last = await solveAtLevel(problem, { attempt, level, timeLimitSeconds, signal: hooks.signal });
    attempts.push(last.attempt);
    if (last.assignment) break;
    // A solver error is not a reason to relax the problem: relaxing would not mend it.
    if (last.attempt.status === 'error') break;
  }
  const run: ScheduleRun = { problem, relaxation_level: level, relaxed: relaxedTexts(level), attempts, manual_retry: request.manual_retry };
  const seconds = Math.round(attempts.reduce((sum, a) => sum + a.seconds, 0) * 1000) / 1000;
  const retryCount = attempts.length - 1;
  if (!last?.assignment) {
    if (last?.attempt.status === 'error') return errorReply(`The solver failed: ${last.run.error ?? last.attempt.solver_status}`, run, retryCount, seconds);
    return exceededReply(request, run, seconds);
  }

  // The independent check: a schedule that breaks a hard rule of the level it was solved at is an error.
  const violations = checkSchedule(last.solvedProblem, last.assignment, { coverageSoft: last.coverageSoft });
  if (violations.length > 0) {
    const rules = [...new Set(violations.map((violation) => violation.rule))];
    const details = violations.slice(0, 5).map((violation) => violation.message);
    const more = violations.length > 5 ? ` (and ${violations.length - 5} more)` : '';
    return errorReply(
      `The solver's schedule breaks ${rules.join(', ')}: ${details.join('; ')}${more}. It was not used.`,
      run,
      retryCount,
      seconds,
    );
  }

  const { status, objective, gap } = last.attempt;
  const formatted = formatSchedule(problem, last.assignment, { status, objective, gap, uncovered: last.uncovered });
  let grid: { headers: string[]; rows: (string | number | null)[][] } | undefined;
  try {
    grid = scheduleGrid(formatted);
  } catch {
    grid = undefined;
  }
  const backend_solver = { result: { success: true, status, objective, gap, seconds }, schedule_formatted_json: formatted };
  if (!grid || grid.rows.length === 0) {
    return {
      ...errorReply(SCHEDULE_GRID_EXTRACTION_FAILED, run, retryCount, seconds),
      backend_solver,
    };
  }
  const message = successMessage(last, run);
  return {
    success: true,
    status: 'success',
    message,
    has_grid: true,
    grid_update: gridUpdate({ headers: grid.headers, rows: grid.rows, source: SCHEDULE_GRID_SOURCE }),
    handsontable_data: { spreadsheet_data: { headers: grid.headers, rows: grid.rows } },
    langchain_result: { status: 'success', message },
    backend_solver,
    solver_status: { working_status: 'success', retry_count: retryCount, max_retries: MAX_SOLVER_RETRIES },
    schedule: run,
  };
}

/** 'Schedule solved: optimal …', with the objective, the gap, what was relaxed and what stayed unfilled. */
function successMessage(solve: LevelSolve, run: ScheduleRun): string {
  const { status, objective, gap } = solve.attempt;
  const { staff, horizon } = solve.solvedProblem;
  const parts = [
    `Schedule solved (${status === 'optimal' ? 'optimal' : 'feasible: the time limit stopped the search'}) for ${staff.length} staff over ${horizon.days} days`,
    `Objective ${objective === null ? '–' : round(objective, 2)}, gap ${gap === null ? 'unknown' : `${round(gap * 100, 2)} %`}`,
  ];
  if (run.relaxed.length > 0) parts.push(`Relaxed: ${run.relaxed.join('; ')}`);
  if (solve.uncovered.length > 0) {
    const missing = solve.uncovered.reduce((sum, u) => sum + u.missing, 0);
    const list = solve.uncovered.slice(0, 10).map((u) => `day ${u.day} ${u.shift} ×${u.missing}`);
    parts.push(`${missing} shift${missing === 1 ? '' : 's'} left unfilled (${list.join(', ')}${solve.uncovered.length > 10 ? ', …' : ''})`);
  }
  return `${parts.join('. ')}.`;
}

/** Retries exceeded (spec 02 §4, §8): the failure text, the conflicting requirements with numbers, and rollback. */
function exceededReply(request: ScheduleOptimization, run: ScheduleRun, seconds: number): ScheduleReply {
  return {
    ...failedReply(solverFailedMessage(MAX_SOLVER_RETRIES), run, MAX_SOLVER_RETRIES, {
      success: false,
      status: run.attempts.at(-1)?.status ?? 'infeasible',
      objective: null,
      gap: null,
      seconds,
    }),
    retry_exceeded: true,
    suggested_actions: suggestedActions(request, run),
    rollback_option: { available: true, description: ROLLBACK_DESCRIPTION },
  };
}

/** The conflicting requirements with their numbers (check/); when the limit, not a conflict, stopped every attempt, say so. */
function suggestedActions(request: ScheduleOptimization, run: ScheduleRun): string[] {
  const actions = explainInfeasibility(request.problem);
  if (run.attempts.some((attempt) => attempt.status === 'time_limit')) {
    const limit = request.time_limit_seconds ?? SCHEDULE_TIME_LIMIT_SECONDS;
    actions.push(`No schedule was found within the ${limit}-second limit of an attempt: schedule fewer staff or days at a time, or allow more time.`);
  }
  return actions;
}

/** A failure that is not the problem's: a solver error, a schedule the checker refused, a grid that could not be made. */
function errorReply(message: string, run: ScheduleRun, retryCount: number, seconds: number): ScheduleReply {
  const last = run.attempts.at(-1);
  const result = { success: false, status: last?.status ?? 'error', objective: last?.objective ?? null, gap: last?.gap ?? null, seconds };
  return { ...failedReply(message, run, retryCount, result), retry_exceeded: false };
}

/** What every failed solve answers: the message where the panel reads it, the last attempt's outcome, status failed. */
function failedReply(message: string, run: ScheduleRun, retryCount: number, result: BackendSolver['result']): ScheduleReply {
  return {
    success: false,
    status: 'failed',
    message,
    error: message,
    has_grid: false,
    langchain_result: { status: 'failed', message },
    backend_solver: { result },
    solver_status: { working_status: 'failed', retry_count: retryCount, max_retries: MAX_SOLVER_RETRIES },
    schedule: run,
  };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
