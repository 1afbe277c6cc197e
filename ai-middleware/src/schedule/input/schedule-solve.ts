import { type HybridResponse, type HybridStage, type ScheduleOptimization, type ScheduleProblem, type ScheduleRun, type SolverStatus, solverBadgeText } from '@tessera/contracts';
import { solveSchedule } from '../solver/schedule.service.js';

/** Told each solver status as the solve goes (retrying n of max, then success or failed), with its text. */
export type SolverStatusListener = (status: SolverStatus, text: string) => void;

export interface ScheduleJob {
  request: ScheduleOptimization;
  mode: HybridResponse['mode'];
  /** Kept in the response: who wrote the problem (provider, model), the instruction, the model's attempts. */
  extra?: Pick<HybridResponse, 'provider' | 'model' | 'echo_prompt' | 'attempts'>;
  signal: AbortSignal;
  onStage: (stage: Exclude<HybridStage, 'final_response'>, text: string) => void;
  onSolverStatus: SolverStatusListener;
}

/**
 * Solves a schedule problem (solveSchedule, src/schedule/solver/) and shapes the hybrid response: the solver's reply merged with the
 * mode and who asked, the stages told as it goes (each solver status too, for the badge), and
 * what each attempt did as the execution output. A Stop during the solve throws the signal's reason.
 */
export async function solveToResponse(job: ScheduleJob): Promise<HybridResponse> {
  const { request, signal, onStage } = job;
  if (signal.aborted) throw signal.reason;
  const level = request.relaxation_level ? ` from relaxation level ${request.relaxation_level}` : '';
  onStage('code_generation', `Solving with HiGHS${level}: ${describeProblem(request.problem)}`);
  const reply = await solveSchedule(request, { signal, onStatus: job.onSolverStatus });
  if (signal.aborted) throw signal.reason;
  // The last status too (success or failed), so the badge follows the stream to its end.
  if (reply.solver_status) job.onSolverStatus(reply.solver_status, solverBadgeText(reply.solver_status));
  const attempts = reply.schedule?.attempts ?? [];
  const last = attempts.at(-1);
  onStage('frontend_panels', reply.success ? `Solved${last ? `: ${last.status} in ${last.seconds.toFixed(2)} s` : ''}` : reply.message);
  onStage(
    'handsontable_updates',
    reply.grid_update ? `Grid: ${reply.grid_update.rows.length} rows × ${reply.grid_update.headers.length} columns` : 'No grid in the result',
  );
  return {
    mode: job.mode,
    execution_output: reply.schedule ? attemptLines(reply.schedule) : '',
    result: null,
    ...reply,
    ...job.extra,
  };
}

/** '12 staff × 28 days; D 2, N 1 a day' — what is being solved, for the stage line. */
export function describeProblem(problem: ScheduleProblem): string {
  const coverage = problem.shift_types.map((shift) => `${shift.code} ${problem.coverage.default[shift.code] ?? 0}`).join(', ');
  return `${problem.staff.length} staff × ${problem.horizon.days} days; ${coverage} a day`;
}

/** One line per attempt and what was relaxed: the panel shows it as the output. */
function attemptLines(run: ScheduleRun): string {
  const lines = run.attempts.map((attempt) => {
    const at = attempt.attempt === 0 ? 'Solve' : `Retry ${attempt.attempt}`;
    const gap = attempt.gap !== null && attempt.gap > 0 ? `, gap ${(attempt.gap * 100).toFixed(2)}%` : '';
    const objective = attempt.objective !== null ? `, objective ${attempt.objective}` : '';
    return `${at} (relaxation level ${attempt.relaxation_level}): ${attempt.status} (${attempt.solver_status}) in ${attempt.seconds.toFixed(2)} s${objective}${gap}`;
  });
  if (run.relaxed.length) lines.push('Relaxed:', ...run.relaxed.map((text) => `- ${text}`));
  return lines.join('\n');
}
