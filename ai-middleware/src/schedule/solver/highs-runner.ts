import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ScheduleSolveStatus } from '@tessera/contracts';
import { takeSolveSlot } from '../../jobs/job-context.js';

/**
 * One HiGHS solve in its own worker thread (solve-worker.mjs): highs blocks the thread it runs
 * on, so the service's event loop stays free, and a solve can be stopped by terminating its
 * worker: when the user presses Stop (the signal), or when HiGHS overruns its own time limit
 * by more than a grace period (a hung solve must not hang the service).
 */

// The worker is plain .mjs in src/ (tsc does not copy it to dist/): from src/schedule/solver/
// and from dist/schedule/solver/ alike this resolves to src/schedule/solver/solve-worker.mjs.
export const SOLVE_WORKER_SCRIPT = fileURLToPath(new URL('../../../src/schedule/solver/solve-worker.mjs', import.meta.url));

/** Seconds past HiGHS's own time limit before the worker is terminated. */
export const SOLVE_GRACE_SECONDS = 5;

export interface HighsRunOptions {
  timeLimitSeconds: number;
  signal?: AbortSignal;
  /** Relative MIP gap at which HiGHS stops (its default is 1e-4). */
  mipRelGap?: number;
  graceSeconds?: number;
}

export interface HighsRun {
  status: ScheduleSolveStatus;
  /** HiGHS's Status string ('Optimal', 'Infeasible', 'Time limit reached' …), or why there is none. */
  solverStatus: string;
  seconds: number;
  objective: number | null;
  /** Relative MIP gap: 0 when proven optimal, null without a solution. */
  gap: number | null;
  /** Column name → value, when HiGHS found a solution. */
  values: Map<string, number> | null;
  /** What went wrong, for status 'error'. */
  error?: string;
}

interface WorkerAnswer {
  ok: boolean;
  error?: string;
  modelStatus?: number;
  statusText?: string;
  hasSolution?: boolean;
  objective?: number;
  gap?: number | null;
  names?: string[];
  values?: Float64Array;
}

// HiGHS model status codes (highs.constants.modelStatus).
const OPTIMAL = 7;
const INFEASIBLE = [8, 9]; // 9 (infeasible or unbounded): our models are bounded, so infeasible.
const LIMITS = [11, 12, 13, 14, 16, 17];

// HiGHS's WebAssembly, compiled once per process and handed to every worker: each solve then
// skips compiling 3.5 MB of code, and V8 shares the optimised code between the workers.
// (The compiler's libs declare no WebAssembly: only compile() is used, and its module is passed on as it is.)
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } };
let compiled: Promise<object> | undefined;
function highsModule(): Promise<object> {
  compiled ??= readFile(createRequire(import.meta.url).resolve('highs/runtime'))
    .then((bytes) => wasm.compile(bytes))
    .catch((error: unknown) => {
      compiled = undefined; // the next solve tries again
      throw error;
    });
  return compiled;
}

// At most MAX_CONCURRENT_SOLVES at once, and one per user: the job scheduler's solve slots (src/jobs/).
export { MAX_CONCURRENT_SOLVES } from '../../jobs/job-context.js';

let liveWorkers = 0;
/** Solver workers started and not yet exited (a stopped or timed-out solve's worker is gone once this drops). */
export function liveSolveWorkers(): number {
  return liveWorkers;
}

export async function runHighs(text: string, options: HighsRunOptions): Promise<HighsRun> {
  const { timeLimitSeconds, signal, mipRelGap, graceSeconds = SOLVE_GRACE_SECONDS } = options;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let wasmModule: object;
  try {
    wasmModule = await highsModule();
  } catch (error) {
    const message = `HiGHS could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
    return { status: 'error', solverStatus: message, seconds: elapsed(), objective: null, gap: null, values: null, error: message };
  }
  if (signal?.aborted) throw signal.reason;
  // The time limit (HiGHS's and the watchdog's) starts once a slot is free: waiting is not solving.
  const releaseSlot = await takeSolveSlot(signal);
  return new Promise<HighsRun>((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(SOLVE_WORKER_SCRIPT);
    } catch (error) {
      releaseSlot();
      throw error;
    }
    liveWorkers++;
    // The slot is free once the worker is gone (terminate() is asynchronous), not when the answer is in.
    worker.once('exit', () => {
      liveWorkers--;
      releaseSlot();
    });
    let settled = false;
    const finish = (outcome: { run: HighsRun } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if ('run' in outcome) resolve(outcome.run);
      else reject(outcome.error);
    };
    const failed = (message: string): HighsRun => ({
      status: 'error',
      solverStatus: message,
      seconds: elapsed(),
      objective: null,
      gap: null,
      values: null,
      error: message,
    });
    const onAbort = () => finish({ error: signal?.reason });
    signal?.addEventListener('abort', onAbort, { once: true });
    // HiGHS checks its time limit between steps; a step that never returns is cut off here.
    const watchdog = setTimeout(
      () => finish({ run: { ...failed('Time limit reached'), status: 'time_limit', error: undefined } }),
      (timeLimitSeconds + graceSeconds) * 1000,
    );
    worker.once('message', (answer: WorkerAnswer) => finish({ run: toRun(answer, elapsed()) }));
    worker.once('error', (error) => finish({ run: failed(error.message) }));
    worker.once('exit', (code) => finish({ run: failed(`The solver stopped unexpectedly (exit code ${code})`) }));
    const highsOptions: Record<string, number> = { time_limit: timeLimitSeconds };
    if (mipRelGap !== undefined) highsOptions.mip_rel_gap = mipRelGap;
    worker.postMessage({ text, options: highsOptions, wasmModule });
  });
}

function toRun(answer: WorkerAnswer, seconds: number): HighsRun {
  const base = { seconds, objective: null, gap: null, values: null };
  if (!answer.ok) return { ...base, status: 'error', solverStatus: answer.error ?? 'error', error: answer.error };
  const code = answer.modelStatus ?? 0;
  const solverStatus = answer.statusText ?? String(code);
  if (answer.hasSolution && (code === OPTIMAL || LIMITS.includes(code))) {
    const values = new Map<string, number>();
    answer.names?.forEach((name, i) => values.set(name, answer.values![i]));
    // Optimal within mip_rel_gap: the gap left is reported as it is (0 when closed).
    const gap = answer.gap === undefined || answer.gap === null ? (code === OPTIMAL ? 0 : null) : Math.max(0, answer.gap);
    return { seconds, status: code === OPTIMAL ? 'optimal' : 'feasible', solverStatus, objective: answer.objective ?? null, gap, values };
  }
  if (INFEASIBLE.includes(code)) return { ...base, status: 'infeasible', solverStatus };
  if (LIMITS.includes(code)) return { ...base, status: 'time_limit', solverStatus };
  return { ...base, status: 'error', solverStatus, error: `HiGHS ended with status ${solverStatus}` };
}
