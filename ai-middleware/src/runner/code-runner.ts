import {
  CODE_RUN_OUTPUT_CAP_CHARS,
  CODE_RUN_OUTPUT_TRUNCATED_MARKER,
  type CodeRunRequest,
  CodeRunRequestSchema,
  type CodeRunResult,
} from '@tessera/contracts';
import { RUNNER_DEFAULTS, type RunnerConfig } from '../config.js';
import { type ChildCommand, childFiles, confinedChildCommand } from './confinement.js';
import { checkedFigures } from './figures.js';
import { gridOfRun } from './grid-extractor.js';
import { gvisorHost, gvisorSelfTest, gvisorSpawner } from './gvisor/gvisor-engine.js';
import { madePyodideSnapshot, pyodideSnapshot } from './pyodide-snapshot.js';
import { type ChildOutcome, RunnerChild } from './runner-child.js';
import type { RunnerWorker } from './runner-worker.js';

/** The Python that runs the jobs, once chosen, and the packages it offers beyond the standard library. */
export interface RunnerEngine {
  name: 'gvisor' | 'pyodide';
  /** Distribution name → version (gVisor: pandas, numpy...; Pyodide: none). */
  packages: Record<string, string>;
  /** With RUNNER_ENGINE=auto and Pyodide chosen: why gVisor was not. */
  fallbackReason?: string;
}

/** What /health will report: whether code can run, and why not. */
export interface CodeRunnerStatus {
  /** starting: no child ready yet; ready; failing: children do not start; refused: cannot confine; closed. */
  state: 'starting' | 'ready' | 'failing' | 'refused' | 'closed';
  /** Code only ever runs confined; false means it does not run at all. */
  confined: boolean;
  reason?: string;
  ready: number;
  warming: number;
  /** Jobs running in a child now. */
  running: number;
  queued: number;
  /** The live engine; absent while RUNNER_ENGINE=auto's self-test runs. */
  engine?: RunnerEngine;
  /** Pyodide children started so far, by how: from the snapshot of a loaded Pyodide, or loaded fresh. */
  pyodideStarts: { snapshot: number; fresh: number };
  /** gVisor sandboxes started so far, by how: restored from the image of a ready sandbox (snapshot), or cold (fresh). */
  gvisorStarts: { snapshot: number; fresh: number };
}

/** The typed service behind "Agent • Direct Exec" (issue 7); the HTTP route stays thin. */
export interface CodeRunner {
  /**
   * Runs one job in a fresh confined child. Throws a ZodError on a malformed request. Aborting
   * the signal (the client went away) takes a job that waits for a child out of line, and kills
   * a running one's child: the result is then STOPPED_ERROR.
   */
  run(request: CodeRunRequest, options?: { signal?: AbortSignal }): Promise<CodeRunResult>;
  status(): CodeRunnerStatus;
  /** The engine once chosen (after RUNNER_ENGINE=auto's self-test); undefined when the runner refuses to run code. */
  engine(): Promise<RunnerEngine | undefined>;
  /** Kills every child and fails waiting jobs. */
  close(): Promise<void>;
}

export const MEMORY_ERROR = 'Execution ran out of memory';
export const CLOSED_ERROR = 'The code runner is shut down';
export const STOPPED_ERROR = 'Execution stopped: the client closed the request';
/** After this many children in a row fail to start, jobs fail instead of waiting. */
const MAX_START_FAILURES = 3;
const RESPAWN_DELAY_MS = 500;
/** A traceback's last lines are what the AI's fix loop needs; the whole one can be long. */
const TRACEBACK_MAX_LINES = 30;
const TRACEBACK_MAX_CHARS = 4000;

/**
 * Why the runner cannot run code at all (it refuses to run unconfined, or it is closed), or
 * undefined while it can (starting, ready, or retrying children that failed to start).
 */
export function runnerUnavailableReason(runner: Pick<CodeRunner, 'status'>): string | undefined {
  const status = runner.status();
  if (status.state !== 'refused' && status.state !== 'closed') return undefined;
  return status.reason ?? 'The code runner is not available';
}

/** The text of a job whose runner process ended on its own (a crash, or a kill the service could not explain). */
export function runnerDiedError(detail: string): string {
  return `The code runner's process ended unexpectedly (${detail}); a fresh one takes the next job`;
}

export function timeoutError(timeoutMs: number): string {
  return `Execution timed out after ${Number((timeoutMs / 1000).toFixed(3))} s`;
}

interface Waiter {
  resolve: (child: RunnerWorker) => void;
  reject: (err: Error) => void;
}

export interface CodeRunnerOptions {
  /** How long a child may take to load Pyodide (or a sandbox to import pandas); default 60 s (FACTS: 4.5 s each when 4 start on 2 cores). */
  readyTimeoutMs?: number;
  /** For tests: replaces the confinement check's outcome (e.g. to see the refusal); Pyodide only. */
  command?: ChildCommand | { refused: string };
  /** Whether printed output is parsed into a grid when the code assigns no result (the enhanced table parsing flag); default true. */
  parsePrintedOutput?: boolean;
}

/** How the pool makes a worker of the chosen engine, or why it cannot. */
type Spawner = { engine: RunnerEngine; spawn: () => RunnerWorker } | { refused: string };

function pyodideSpawner(config: RunnerConfig, options: CodeRunnerOptions, readyTimeoutMs: number, fallbackReason?: string): Spawner {
  const fresh = options.command ?? confinedChildCommand(CODE_RUN_OUTPUT_CAP_CHARS, config.timeoutMs);
  if ('refused' in fresh) return fresh;
  const pyodide = options.command ? undefined : childFiles().pyodide;
  if (pyodide) void pyodideSnapshot(pyodide);
  // Children load Pyodide fresh until the snapshot is there, then start from it.
  let fromSnapshot: ChildCommand | undefined;
  const command = (): ChildCommand => {
    const snapshot = pyodide && !fromSnapshot ? madePyodideSnapshot(pyodide) : undefined;
    const withSnapshot = snapshot && confinedChildCommand(CODE_RUN_OUTPUT_CAP_CHARS, config.timeoutMs, undefined, snapshot);
    if (withSnapshot && !('refused' in withSnapshot)) fromSnapshot = withSnapshot;
    return fromSnapshot ?? fresh;
  };
  return {
    engine: { name: 'pyodide', packages: {}, ...(fallbackReason ? { fallbackReason } : {}) },
    spawn: () => new RunnerChild(command(), { memoryMb: config.memoryMb, readyTimeoutMs }),
  };
}

/**
 * The engine RUNNER_ENGINE names: gvisor (refused with the reason where it cannot run), pyodide,
 * or auto — gvisor when its self-test passes (a sandbox starts and imports pandas), else pyodide.
 */
async function chooseEngine(config: RunnerConfig, options: CodeRunnerOptions, readyTimeoutMs: number): Promise<Spawner> {
  if (config.engine === 'pyodide' || options.command) return pyodideSpawner(config, options, readyTimeoutMs);
  if (config.engine === 'gvisor') {
    const host = gvisorHost();
    if ('refused' in host) return host;
    const test = await gvisorSelfTest(config.memoryMb, readyTimeoutMs);
    return {
      engine: { name: 'gvisor', packages: test.ok ? test.packages : {} },
      spawn: gvisorSpawner(host, config.memoryMb, readyTimeoutMs),
    };
  }
  const test = await gvisorSelfTest(config.memoryMb, readyTimeoutMs);
  const host = gvisorHost();
  if (test.ok && !('refused' in host)) {
    return { engine: { name: 'gvisor', packages: test.packages }, spawn: gvisorSpawner(host, config.memoryMb, readyTimeoutMs) };
  }
  return pyodideSpawner(config, options, readyTimeoutMs, test.ok ? 'gVisor is not available' : test.reason);
}

export function createCodeRunner(config: RunnerConfig = RUNNER_DEFAULTS, options: CodeRunnerOptions = {}): CodeRunner {
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const parsePrintedOutput = options.parsePrintedOutput ?? true;
  const ready: RunnerWorker[] = [];
  const warming = new Set<RunnerWorker>();
  const busy = new Set<RunnerWorker>();
  const waiters: Waiter[] = [];
  // Chosen synchronously for Pyodide (as before), after the self-test for gVisor and auto.
  let spawner: Spawner | undefined =
    config.engine === 'pyodide' || options.command ? pyodideSpawner(config, options, readyTimeoutMs) : undefined;
  let state: CodeRunnerStatus['state'] = spawner && 'refused' in spawner ? 'refused' : 'starting';
  let reason = spawner && 'refused' in spawner ? spawner.refused : undefined;
  let startFailures = 0;
  const alive = new Set<RunnerWorker>();
  const pyodideStarts = { snapshot: 0, fresh: 0 };
  const gvisorStarts = { snapshot: 0, fresh: 0 };
  let respawnTimer: NodeJS.Timeout | undefined;
  const chosen: Promise<void> = spawner
    ? Promise.resolve()
    : chooseEngine(config, options, readyTimeoutMs).then(
        (result) => {
          spawner = result;
          if (state === 'closed') return;
          if ('refused' in result) {
            state = 'refused';
            reason = result.refused;
            for (const waiter of waiters.splice(0)) waiter.reject(new Error(result.refused));
            return;
          }
          fill();
        },
        (err: Error) => {
          spawner = { refused: `The code runner could not choose its engine (${err.message})` };
          state = 'refused';
          reason = spawner.refused;
          for (const waiter of waiters.splice(0)) waiter.reject(new Error(reason));
        },
      );

  function fill(): void {
    if (!spawner || 'refused' in spawner || state === 'closed' || state === 'failing') return;
    while (ready.length + warming.size < config.poolSize) spawnOne(spawner.spawn);
  }

  function spawnOne(spawn: () => RunnerWorker): void {
    let child: RunnerWorker;
    try {
      child = spawn();
    } catch (err) {
      // Writing a bundle failed (a full disk): counted as a failed start.
      startFailed(err as Error);
      return;
    }
    warming.add(child);
    // Until its exit (its sandbox deleted, cgroup and bundle removed): close() waits for every one,
    // also those already leaving the pool (a failed start, a finished job).
    alive.add(child);
    void child.exited.then(() => alive.delete(child));
    child.ready.then(
      () => {
        warming.delete(child);
        if (child.boot) (spawner && 'engine' in spawner && spawner.engine.name === 'gvisor' ? gvisorStarts : pyodideStarts)[child.boot] += 1;
        if (state === 'closed') return child.kill();
        startFailures = 0;
        state = 'ready';
        reason = undefined;
        const waiter = waiters.shift();
        if (waiter) {
          waiter.resolve(child);
          fill(); // handed straight to a job: its replacement starts warming
          return;
        }
        ready.push(child);
        // An idle child that dies (killed from outside) leaves the pool and is replaced.
        void child.exited.then(() => {
          const index = ready.indexOf(child);
          if (index >= 0) {
            ready.splice(index, 1);
            fill();
          }
        });
      },
      (err: Error) => {
        warming.delete(child);
        startFailed(err);
      },
    );
  }

  function startFailed(err: Error): void {
    if (state === 'closed') return;
    startFailures += 1;
    if (startFailures >= MAX_START_FAILURES) {
      state = 'failing';
      reason = `Code runner children fail to start (${err.message})`;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(reason));
    } else {
      respawnTimer = setTimeout(fill, RESPAWN_DELAY_MS);
    }
  }

  function take(signal?: AbortSignal): Promise<RunnerWorker> {
    if (state === 'failing') {
      // Try again for this job: the cause (e.g. memory pressure) may have passed.
      state = 'starting';
      startFailures = 0;
    }
    const child = ready.shift();
    const taken = child
      ? Promise.resolve(child)
      : new Promise<RunnerWorker>((resolve, reject) => {
          const waiter: Waiter = {
            resolve: (c) => {
              signal?.removeEventListener('abort', onAbort);
              resolve(c);
            },
            reject,
          };
          const onAbort = () => {
            const index = waiters.indexOf(waiter);
            if (index >= 0) waiters.splice(index, 1);
            reject(new Error(STOPPED_ERROR));
          };
          waiters.push(waiter);
          signal?.addEventListener('abort', onAbort, { once: true });
        });
    fill(); // the replacement starts warming now, while this job runs
    return taken;
  }

  async function run(request: CodeRunRequest, options: { signal?: AbortSignal } = {}): Promise<CodeRunResult> {
    const { signal } = options;
    const job = CodeRunRequestSchema.parse(request);
    if (state === 'refused') return failure(reason ?? 'The code runner refuses to run code unconfined.');
    if (state === 'closed') return failure(CLOSED_ERROR);
    if (signal?.aborted) return failure(STOPPED_ERROR);
    let child: RunnerWorker;
    try {
      child = await take(signal);
    } catch (err) {
      return failure((err as Error).message);
    }
    busy.add(child);
    // Nobody is left to read the result: the child is killed now, not at the time limit.
    const onAbort = () => child.kill({ kind: 'stopped' });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal?.aborted) return failure(STOPPED_ERROR);
      return toResult(await child.run(job, config.timeoutMs), config.timeoutMs, parsePrintedOutput);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // One child per job: state leaks between jobs in one Pyodide (FACTS.md).
      busy.delete(child);
      child.kill();
    }
  }

  function status(): CodeRunnerStatus {
    return {
      state,
      confined: !(spawner && 'refused' in spawner),
      ...(reason === undefined ? {} : { reason }),
      ready: ready.length,
      warming: warming.size,
      running: busy.size,
      queued: waiters.length,
      ...(spawner && 'engine' in spawner ? { engine: spawner.engine } : {}),
      pyodideStarts: { ...pyodideStarts },
      gvisorStarts: { ...gvisorStarts },
    };
  }

  async function close(): Promise<void> {
    state = 'closed';
    clearTimeout(respawnTimer);
    for (const waiter of waiters.splice(0)) waiter.reject(new Error(CLOSED_ERROR));
    const all = [...ready.splice(0), ...warming, ...busy];
    warming.clear();
    for (const child of all) child.kill({ kind: 'closed' });
    await Promise.all([...all, ...alive].map((child) => child.exited));
    await chosen; // a self-test still running ends (and removes its sandbox) before close resolves
  }

  async function engine(): Promise<RunnerEngine | undefined> {
    await chosen;
    return spawner && 'engine' in spawner ? spawner.engine : undefined;
  }

  fill();
  return { run, status, engine, close };
}

function failure(error: string, execution_output = ''): CodeRunResult {
  return { execution_output, result: null, error };
}

function toResult(outcome: ChildOutcome, timeoutMs: number, parsePrintedOutput: boolean): CodeRunResult {
  switch (outcome.kind) {
    case 'timeout':
      return failure(timeoutError(timeoutMs));
    case 'memory':
      return failure(MEMORY_ERROR);
    case 'closed':
      return failure(CLOSED_ERROR);
    case 'stopped':
      return failure(STOPPED_ERROR);
    case 'too_large':
      return failure('Execution result too large (more than 64 MB)');
    case 'died':
      return failure(runnerDiedError(outcome.detail));
    case 'done': {
      const { message } = outcome;
      // The child caps its output; the cap is applied again here, since the child is not trusted.
      const output = message.output.slice(0, CODE_RUN_OUTPUT_CAP_CHARS);
      const truncated = message.truncated || message.output.length > CODE_RUN_OUTPUT_CAP_CHARS;
      const execution_output = truncated ? output + CODE_RUN_OUTPUT_TRUNCATED_MARKER : output;
      if (message.error) {
        if (message.error.kind === 'memory') return failure(MEMORY_ERROR, execution_output);
        if (message.error.kind === 'fatal') return failure(`Execution stopped: ${message.error.message}`, execution_output);
        return failure(lastLines(message.error.message), execution_output);
      }
      const result = message.result ?? null;
      // What it assigned to `result`, else what it printed (spec 02 §5's filters apply).
      return {
        execution_output,
        result,
        ...gridOfRun(result, output, truncated, { parsePrintedOutput }),
        ...checkedFigures(message.figures, message.figures_omitted),
      };
    }
  }
}

function lastLines(traceback: string): string {
  const lines = traceback.trimEnd().split('\n').slice(-TRACEBACK_MAX_LINES).join('\n');
  return lines.length > TRACEBACK_MAX_CHARS ? lines.slice(-TRACEBACK_MAX_CHARS) : lines;
}
