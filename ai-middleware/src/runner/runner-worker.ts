import type { CodeRunRequest } from '@tessera/contracts';
import type { ChildOutcome } from './runner-child.js';

/**
 * One warm worker of the pool, whatever the engine (a Pyodide child, a gVisor sandbox): it
 * becomes ready, takes exactly one job, and is then destroyed.
 */
export interface RunnerWorker {
  /** Resolves when the worker can take its job; rejects if it dies or hangs first. */
  readonly ready: Promise<void>;
  /** Resolves when the worker and everything it started are gone. */
  readonly exited: Promise<void>;
  /** How it starts: from the service's snapshot (Pyodide's memory, a gVisor checkpoint) or fresh. */
  readonly boot?: 'snapshot' | 'fresh';
  /** Sends the job and resolves with how it ended; the worker is killed afterwards in every case. */
  run(job: CodeRunRequest, timeoutMs: number): Promise<ChildOutcome>;
  kill(reason?: ChildOutcome): void;
}
