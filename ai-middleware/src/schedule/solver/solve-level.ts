import type { ScheduleAttempt, ScheduleFormatted, ScheduleProblem } from '@tessera/contracts';
import { runHighs, type HighsRun } from './highs-runner.js';
import { buildScheduleModel } from './lp-model.js';
import { coverageIsSoft, relaxProblem } from './relaxation.js';

/** One solve of a problem at one relaxation level, mapped back to the schedule. */
export interface LevelSolve {
  attempt: ScheduleAttempt;
  /** The problem as solved (relaxed to the level): what the checker checks the schedule against. */
  solvedProblem: ScheduleProblem;
  coverageSoft: boolean;
  /** assignment[s][d − 1]: the shift code staff s works on day d, or null; staff in problem order. Absent without a schedule. */
  assignment?: (string | null)[][];
  uncovered: ScheduleFormatted['uncovered'];
  run: HighsRun;
}

export interface LevelSolveOptions {
  attempt: number;
  level: number;
  timeLimitSeconds: number;
  signal?: AbortSignal;
}

// HiGHS stops at a relative gap of 1e-4 by default; the objective (preferences, balance) is a
// soft wish, so half a percent is as good as proven optimal for a roster and saves the long tail.
const MIP_REL_GAP = 0.005;

export async function solveAtLevel(problem: ScheduleProblem, options: LevelSolveOptions): Promise<LevelSolve> {
  const solvedProblem = relaxProblem(problem, options.level);
  const coverageSoft = coverageIsSoft(options.level);
  const model = buildScheduleModel(solvedProblem, { coverageSoft });
  const run = await runHighs(model.text, { timeLimitSeconds: options.timeLimitSeconds, signal: options.signal, mipRelGap: MIP_REL_GAP });
  const attempt: ScheduleAttempt = {
    attempt: options.attempt,
    relaxation_level: options.level,
    status: run.status,
    solver_status: run.solverStatus,
    seconds: Math.round(run.seconds * 1000) / 1000,
    // HiGHS's floating point (−82.00000000000001) rounded off: these are shown as they are.
    objective: run.objective === null ? null : roundTo(run.objective, 6),
    gap: run.gap === null ? null : roundTo(run.gap, 6),
  };
  const solve: LevelSolve = { attempt, solvedProblem, coverageSoft, uncovered: [], run };
  if (run.values) {
    const assignment = solvedProblem.staff.map(() => Array<string | null>(solvedProblem.horizon.days).fill(null));
    for (const [name, cell] of model.cells) {
      if ((run.values.get(name) ?? 0) > 0.5) assignment[cell.staff][cell.day - 1] = solvedProblem.shift_types[cell.shift].code;
    }
    solve.assignment = assignment;
    for (const [name, { day, shift }] of model.unfilled) {
      const missing = Math.round(run.values.get(name) ?? 0);
      if (missing > 0) solve.uncovered.push({ day, shift: solvedProblem.shift_types[shift].code, missing });
    }
  }
  return solve;
}

const roundTo = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
