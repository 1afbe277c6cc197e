import {
  finalResponseEvent,
  hybridStageEvent,
  solverStatusEvent,
  HybridResponseSchema,
  HybridStreamEventSchema,
  MAX_SOLVER_RETRIES,
  SCHEDULE_GRID_SOURCE,
  SCHEDULE_RELAXATIONS,
  relaxedTexts,
  ScheduleProblemSchema,
  solverBadgeText,
  solverFailedMessage,
  type HybridResponse,
  type HybridStreamEvent,
  type ScheduleProblem,
  type ScheduleProblemInput,
  type SolverStatus,
} from '@tessera/contracts';
import type { ServerResponse } from 'node:http';
import { streamHybrid, type Route } from './fake-services.js';
import { json, sse } from '@tessera/jest-react/loopback';

/**
 * Test support: the ai-middleware's schedule solver as the panel sees it (contracts'
 * HybridResponseSchema and HybridStreamEventSchema check every reply and event it sends):
 * streamed solver statuses while it retries, then the final reply (failed after the retries
 * with suggested actions, or a schedule grid).
 */

/** P2 of the agreed phrases: 3 doctors over 28 days, 2 on night shift, at most 8 nights each (infeasible until level 4). */
export const P2_PROMPT = 'schedule 3 doctors over 28 days, 2 on night shift, at most 8 nights each';
export const P1_PROMPT = 'schedule 12 doctors over 28 days, 2 on day shift and 1 on night shift, at most 6 days in a row';

export function doctors(count: number, days: number, coverage: Record<string, number>, rules: ScheduleProblemInput['rules'] = {}): ScheduleProblem {
  return ScheduleProblemSchema.parse({
    staff: Array.from({ length: count }, (_, i) => ({ id: `D${i + 1}`, name: `Doctor ${i + 1}` })),
    horizon: { days },
    shift_types: [
      { code: 'D', name: 'Day', start_hour: 7, hours: 12 },
      { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true, max_per_staff: count === 3 ? 8 : undefined },
    ],
    coverage: { default: coverage },
    rules,
  } satisfies ScheduleProblemInput);
}
export const p2Problem = () => doctors(3, 28, { N: 2 });
export const p1Problem = () => doctors(12, 28, { D: 2, N: 1 }, { max_consecutive_days: 6, no_day_after_night: true });

export const P2_SUGGESTED_ACTIONS = [
  '2 doctors per night for 28 nights needs 56 doctor-nights; 3 doctors × at most 8 nights = 24',
  'Allow more nights per doctor, or add 4 doctors',
];

const attempts = (upTo: number, status: 'infeasible' | 'optimal') =>
  Array.from({ length: upTo + 1 }, (_, level) => ({
    attempt: level,
    relaxation_level: level,
    status: level === upTo ? status : ('infeasible' as const),
    solver_status: level === upTo && status === 'optimal' ? 'Optimal' : 'Infeasible',
    seconds: 0.01,
    objective: level === upTo && status === 'optimal' ? 0 : null,
    gap: level === upTo && status === 'optimal' ? 0 : null,
  }));


/** The reply after the third retry failed (spec 02 §4): retry_exceeded, the §8 message, the suggested actions. */
export function failedAfterRetries(problem: ScheduleProblem = p2Problem(), suggested = P2_SUGGESTED_ACTIONS, level = MAX_SOLVER_RETRIES): HybridResponse {
  const message = solverFailedMessage(MAX_SOLVER_RETRIES);
  return HybridResponseSchema.parse({
    success: false,
    status: 'failed',
    message,
    error: message,
    mode: 'agent-ai',
    execution_output: '',
    result: null,
    has_grid: false,
    langchain_result: { status: 'failed', message },
    backend_solver: { result: { success: false, status: 'infeasible', objective: null, gap: null, seconds: 0.04 } },
    solver_status: { working_status: 'failed', retry_count: MAX_SOLVER_RETRIES, max_retries: MAX_SOLVER_RETRIES },
    retry_exceeded: true,
    suggested_actions: suggested,
    rollback_option: { available: true, description: 'Go back to the sheet before the AI’s last change and the last problem that solved.' },
    schedule: { problem, relaxation_level: level, relaxed: relaxedTexts(level), attempts: attempts(level, 'infeasible'), manual_retry: false },
  } satisfies HybridResponse);
}

/** A solved schedule: the grid (Doctor ID, Doctor Name, 1..N, Total D, Total N) and its run. */
export function solved(problem: ScheduleProblem, options: { level?: number; manualRetry?: boolean; withGrid?: boolean } = {}): HybridResponse {
  const level = options.level ?? 0;
  const days = problem.horizon.days;
  const codes = problem.shift_types.map((s) => s.code);
  const shifts = problem.staff.map((_, i) => Array.from({ length: days }, (_, d) => ((d + i) % 3 === 0 ? codes[(d + i) % codes.length] : null)));
  const totals = shifts.map((row) => Object.fromEntries(codes.map((c) => [c, row.filter((s) => s === c).length])));
  const headers = ['Doctor ID', 'Doctor Name', ...Array.from({ length: days }, (_, d) => String(d + 1)), ...codes.map((c) => `Total ${c}`)];
  const rows = problem.staff.map((m, i) => [m.id, m.name, ...shifts[i].map((s) => s ?? ''), ...codes.map((c) => totals[i][c])]);
  const withGrid = options.withGrid !== false;
  const message = `Schedule solved at relaxation level ${level}`;
  return HybridResponseSchema.parse({
    success: true,
    status: 'success',
    message,
    mode: 'agent-direct',
    execution_output: '',
    result: null,
    has_grid: withGrid,
    ...(withGrid
      ? {
          grid_update: { headers, rows, updated: true, source: SCHEDULE_GRID_SOURCE, metadata: { hash: `schedule-${level}-${JSON.stringify(rows)}`, detected_by: SCHEDULE_GRID_SOURCE } },
          handsontable_data: { spreadsheet_data: { headers, rows } },
        }
      : {}),
    langchain_result: { status: 'success', message },
    backend_solver: {
      result: { success: true, status: 'optimal', objective: 0, gap: 0, seconds: 0.05 },
      schedule_formatted_json: {
        days: Array.from({ length: days }, (_, d) => ({ day: d + 1, weekday: 'mon' })),
        shift_types: problem.shift_types.map((s) => ({ code: s.code, name: s.name, hours: s.hours })),
        staff: problem.staff.map((m, i) => ({ id: m.id, name: m.name, shifts: shifts[i], totals: totals[i], hours: 0 })),
        uncovered: [],
        objective: 0,
        gap: 0,
        status: 'optimal',
      },
    },
    solver_status: { working_status: 'success', retry_count: Math.min(level, MAX_SOLVER_RETRIES), max_retries: MAX_SOLVER_RETRIES },
    schedule: { problem, relaxation_level: level, relaxed: relaxedTexts(level), attempts: attempts(level, 'optimal'), manual_retry: options.manualRetry ?? false },
  } satisfies HybridResponse);
}

/** The retrying statuses the middleware streams before its third retry fails. */
export const RETRYING: SolverStatus[] = [1, 2, 3].map((n) => ({ working_status: 'retrying', retry_count: n, max_retries: MAX_SOLVER_RETRIES }));

/**
 * Streams a solve: analysis, one event per solver status (each awaits `gate` first when one is
 * given, so a test can look at the badge between them), then the final reply.
 */
export async function streamSolve(res: ServerResponse, statuses: SolverStatus[], response: HybridResponse, gate?: () => Promise<void>) {
  const stream = sse(res);
  const send = (event: HybridStreamEvent) => stream.send(HybridStreamEventSchema.parse(event));
  send(hybridStageEvent('analysis', 'Reading the schedule problem'));
  for (const status of statuses) {
    if (gate) await gate();
    send(solverStatusEvent(status, solverBadgeText(status)));
  }
  if (gate) await gate();
  send(finalResponseEvent(response));
  stream.end();
}

/** A gate the test opens one step at a time. */
export function stepGate() {
  const waiting: (() => void)[] = [];
  let credit = 0;
  return {
    gate: () =>
      new Promise<void>((resolve) => {
        if (credit > 0) {
          credit--;
          resolve();
        } else waiting.push(resolve);
      }),
    step() {
      const next = waiting.shift();
      if (next) next();
      else credit++;
    },
    /** Lets every later step through. */
    open() {
      credit = Number.POSITIVE_INFINITY;
      waiting.splice(0).forEach((r) => r());
    },
  };
}

export interface SolverMiddlewareOptions {
  /** Replaces the answer to a prompt (not to a parameters.optimization solve). */
  answer?: (prompt: string) => HybridResponse | null;
  /** Awaited before each streamed solver status and before the final event. */
  gate?: () => Promise<void>;
  /** The reply to any other request (e.g. a Direct Exec run), as the ai-middleware would send it. */
  fallback?: (body: Record<string, unknown>) => Record<string, unknown> | null;
}

/** The solver's reply to a request, with the statuses streamed before it. */
function solverAnswer(body: Record<string, unknown>, options: SolverMiddlewareOptions): { response: HybridResponse; statuses: SolverStatus[] } | null {
  const parameters = body.parameters as { optimization?: { problem: unknown; relaxation_level?: number; manual_retry?: boolean } } | undefined;
  const optimization = parameters?.optimization;
  const withStatuses = (response: HybridResponse) => ({ response, statuses: response.retry_exceeded ? RETRYING : [] });
  if (optimization) {
    const problem = ScheduleProblemSchema.parse(optimization.problem);
    const level = optimization.relaxation_level ?? 0;
    // The last level makes coverage a target: it always solves; below it, P2 still fails after the retries.
    return withStatuses(
      level >= SCHEDULE_RELAXATIONS.length
        ? solved(problem, { level, manualRetry: optimization.manual_retry })
        : failedAfterRetries(problem, P2_SUGGESTED_ACTIONS, Math.max(level, MAX_SOLVER_RETRIES)),
    );
  }
  const prompt = String(body.problem ?? '');
  const custom = options.answer?.(prompt);
  if (custom) return withStatuses(custom);
  if (prompt === P1_PROMPT) return withStatuses(solved(p1Problem()));
  if (prompt === P2_PROMPT) return withStatuses(failedAfterRetries());
  return null;
}

/**
 * POST /hybrid/forward of a fake ai-middleware that solves schedules as the real one answers:
 * a parameters.optimization problem is solved at its relaxation level (the last level always
 * solves, lower ones of P2 fail after the retries); P1 solves; P2 fails after three retries,
 * streaming 'retrying 1..3' first. Other requests get `fallback`. JSON unless the body asks
 * for a stream.
 */
export function solverMiddleware(options: SolverMiddlewareOptions = {}): Route {
  return async (req, res) => {
    if (req.method !== 'POST' || req.path !== '/hybrid/forward') return false;
    const body = req.body as Record<string, unknown>;
    const solve = solverAnswer(body, options);
    if (solve) {
      if (body.stream_mode) await streamSolve(res, solve.statuses, solve.response, options.gate);
      else json(res, 200, solve.response);
      return;
    }
    const other = options.fallback?.(body);
    if (!other) return json(res, 404, { error: { code: 'not_found', message: 'The fake middleware has no answer for this request' } });
    if (body.stream_mode) await streamHybrid(res, other);
    else json(res, 200, other);
  };
}
