import { z } from 'zod';
import { MAX_SOLVER_RETRIES } from '../constants.js';
import { ScheduleProblemSchema } from './schedule-problem.schema.js';

/**
 * What a schedule solve answers (spec 02 §3 "AI hybrid response": backend_solver, solver_status,
 * retry_exceeded, suggested_actions, rollback_option; §4 Solver; §8 texts).
 */

/**
 * Relaxation levels, in the order the solver applies them when a problem is infeasible: each
 * level keeps every relaxation below it. Levels 1..MAX_SOLVER_RETRIES are the automatic
 * retries; 'Retry with Simpler Requirements' goes one level further. The last level always
 * solves: coverage may go unfilled, and what is unfilled is reported.
 */
export const SCHEDULE_RELAXATIONS = [
  { level: 1, key: 'consecutive_and_weekends', text: 'one more working day in a row allowed, and weekend fairness dropped' },
  { level: 2, key: 'shift_limits', text: "each person's minimum shifts dropped and maximum shifts (overall and per shift type) raised by a quarter" },
  { level: 3, key: 'rest_rules', text: 'rest rules dropped (a day shift may follow a night shift, no minimum rest) and two more working days in a row allowed' },
  { level: 4, key: 'coverage', text: 'coverage made a target: shifts may stay unfilled, each one reported' },
] as const;
export const SCHEDULE_MAX_RELAXATION_LEVEL = SCHEDULE_RELAXATIONS.length;

/** What was relaxed at `level`, in words (the texts of levels 1..level). */
export function relaxedTexts(level: number): string[] {
  return SCHEDULE_RELAXATIONS.filter((relaxation) => relaxation.level <= level).map((relaxation) => relaxation.text);
}

/** The text of one level ('retrying with …', 'Retry with Simpler Requirements: …'); '' for a level that does not exist. */
export function relaxationText(level: number): string {
  return SCHEDULE_RELAXATIONS.find((relaxation) => relaxation.level === level)?.text ?? '';
}
export type ScheduleRelaxationKey = (typeof SCHEDULE_RELAXATIONS)[number]['key'];

/** Spec 02 §4 Solver: the statuses the badge shows. */
export const SOLVER_WORKING_STATUSES = ['success', 'retrying', 'failed'] as const;
export type SolverWorkingStatus = (typeof SOLVER_WORKING_STATUSES)[number];

/** spec 02 §3 solver_status: where the solve stands; retry_count retries were made of max_retries. */
export const SolverStatusSchema = z.object({
  working_status: z.enum(SOLVER_WORKING_STATUSES),
  retry_count: z.number().int().min(0),
  max_retries: z.number().int().min(0),
});
export type SolverStatus = z.infer<typeof SolverStatusSchema>;

/** HiGHS's outcome in our words: optimal, feasible (a limit stopped it with a schedule in hand), infeasible, or no schedule found in time. */
export const SCHEDULE_SOLVE_STATUSES = ['optimal', 'feasible', 'infeasible', 'time_limit', 'error'] as const;
export type ScheduleSolveStatus = (typeof SCHEDULE_SOLVE_STATUSES)[number];

/** One solve of the problem at one relaxation level. */
export const ScheduleAttemptSchema = z.object({
  /** 0 is the problem as given; n the n-th retry. */
  attempt: z.number().int().min(0),
  relaxation_level: z.number().int().min(0).max(SCHEDULE_MAX_RELAXATION_LEVEL),
  status: z.enum(SCHEDULE_SOLVE_STATUSES),
  /** The HiGHS model status string ('Optimal', 'Infeasible', 'Time limit reached' ...). */
  solver_status: z.string(),
  seconds: z.number().min(0),
  objective: z.number().nullable(),
  /** Relative MIP gap (0 when proven optimal), null when no schedule was found. */
  gap: z.number().nullable(),
});
export type ScheduleAttempt = z.infer<typeof ScheduleAttemptSchema>;

const ShiftCellSchema = z.string().nullable();

/** backend_solver.schedule_formatted_json: the schedule as data (the grid is made from it). */
export const ScheduleFormattedSchema = z.object({
  days: z.array(z.object({ day: z.number().int(), weekday: z.string(), date: z.string().optional() })),
  shift_types: z.array(z.object({ code: z.string(), name: z.string(), hours: z.number() })),
  staff: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** One cell per day (index day − 1): the shift code worked, or null for a day off. */
      shifts: z.array(ShiftCellSchema),
      totals: z.record(z.string(), z.number().int()),
      hours: z.number(),
    }),
  ),
  /** Shifts that stayed unfilled (only at the last relaxation level, where coverage is a target). */
  uncovered: z.array(z.object({ day: z.number().int(), shift: z.string(), missing: z.number().int().positive() })),
  objective: z.number().nullable(),
  gap: z.number().nullable(),
  status: z.enum(SCHEDULE_SOLVE_STATUSES),
});
export type ScheduleFormatted = z.infer<typeof ScheduleFormattedSchema>;

/** spec 02 §3 backend_solver: the solve's result and the formatted schedule (absent when none was found). */
export const BackendSolverSchema = z.object({
  result: z.object({
    success: z.boolean(),
    status: z.enum(SCHEDULE_SOLVE_STATUSES),
    objective: z.number().nullable(),
    gap: z.number().nullable(),
    seconds: z.number().min(0),
  }),
  schedule_formatted_json: ScheduleFormattedSchema.optional(),
});
export type BackendSolver = z.infer<typeof BackendSolverSchema>;

/** spec 02 §3 rollback_option: offered once retries are exceeded (back to the last problem that solved, and the sheet before the AI's last change). */
export const RollbackOptionSchema = z.object({ available: z.boolean(), description: z.string() });
export type RollbackOption = z.infer<typeof RollbackOptionSchema>;

/** The schedule part of a hybrid response: the problem as given and as solved, what was relaxed, every attempt. */
export const ScheduleRunSchema = z.object({
  problem: ScheduleProblemSchema,
  /** The level the last attempt ran at (0: nothing relaxed). */
  relaxation_level: z.number().int().min(0).max(SCHEDULE_MAX_RELAXATION_LEVEL),
  /** What was relaxed, in words (SCHEDULE_RELAXATIONS' texts up to relaxation_level). */
  relaxed: z.array(z.string()),
  attempts: z.array(ScheduleAttemptSchema),
  /** True when this run was 'Retry with Simpler Requirements' (its sheet gets the '-retry' suffix). */
  manual_retry: z.boolean(),
});
export type ScheduleRun = z.infer<typeof ScheduleRunSchema>;

/**
 * parameters.optimization of POST /hybrid/forward (spec 02 §7 "parameters (environment_id,
 * optimization)"): a schedule problem given as JSON, solved as it is (no code, no model).
 * relaxation_level starts the solve at that level; manual_retry marks 'Retry with Simpler Requirements'.
 */
export const ScheduleOptimizationSchema = z.object({
  kind: z.literal('schedule'),
  problem: ScheduleProblemSchema,
  relaxation_level: z.number().int().min(0).max(SCHEDULE_MAX_RELAXATION_LEVEL).default(0),
  manual_retry: z.boolean().default(false),
  /** Seconds HiGHS may take per attempt (default SCHEDULE_TIME_LIMIT_SECONDS). */
  time_limit_seconds: z.number().positive().max(300).optional(),
});
export type ScheduleOptimization = z.infer<typeof ScheduleOptimizationSchema>;

/** Default time limit of one solve. */
export const SCHEDULE_TIME_LIMIT_SECONDS = 30;

// Spec 02 §8 texts.
export const solverFailedMessage = (attempts: number = MAX_SOLVER_RETRIES) =>
  `Math model requirements update cannot be fulfilled. Solver could not solve the problem after ${attempts} attempts.`;
export const solverFailedShort = (attempts: number = MAX_SOLVER_RETRIES) => `Solver failed after ${attempts} attempts`;
export const SCHEDULE_GRID_EXTRACTION_FAILED = 'Schedule success flag true but grid extraction failed';
/** Spec 02 §2, §4: the solver status badge. */
export function solverBadgeText(status: SolverStatus): string {
  if (status.working_status === 'retrying') return `Solver: retrying (attempt ${status.retry_count} of ${status.max_retries})`;
  return `Solver: ${status.working_status}`;
}
/** Spec 02 §2 Operation Failed panel. */
export const RECOVERY_TEXTS = {
  title: 'Operation Failed',
  rollback: 'Rollback',
  retry: 'Retry with Simpler Requirements',
  reset: 'Reset Session',
  suggestedActions: 'Suggested actions',
} as const;
/** Spec 02 §9: the suffix of a sheet made by 'Retry with Simpler Requirements'. */
export const RETRY_SHEET_SUFFIX = '-retry';
/** Spec 02 §3 Sheet metadata.origin of schedule sheets. */
export const SCHEDULE_ORIGINS = { auto: 'schedule_auto', manualRetry: 'schedule_manual_retry' } as const;
