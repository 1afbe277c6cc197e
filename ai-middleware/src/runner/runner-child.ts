import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { CodeRunRequest } from '@tessera/contracts';
import type { ChildDone, ChildMessage } from './child-message.schema.js';
import { ChildMessageLines } from './child-message-lines.js';
import type { ChildCommand } from './confinement.js';

/** How often the parent reads the child's resident memory (FACTS.md: 50 ms). */
const WATCHDOG_INTERVAL_MS = 50;
const STDERR_TAIL_CHARS = 2000;

/** How a job on one child ended. */
export type ChildOutcome =
  | { kind: 'done'; message: ChildDone }
  | { kind: 'timeout' }
  | { kind: 'memory' }
  | { kind: 'too_large' }
  | { kind: 'closed' }
  /** The job's client went away: killed before its end. */
  | { kind: 'stopped' }
  | { kind: 'died'; detail: string };

export interface RunnerChildOptions {
  memoryMb: number;
  /** How long the child may take to load Pyodide (several start at once on 2 cores). */
  readyTimeoutMs: number;
}

/**
 * One confined child (child.mjs) seen from the parent: it becomes ready once Pyodide is
 * loaded, runs exactly one job, and is then killed. The parent enforces time (SIGKILL at
 * the limit) and memory (an RSS watchdog) itself: nothing the child's code does can
 * switch those off.
 */
export class RunnerChild {
  /** Resolves when Pyodide is loaded; rejects if the child dies or hangs first. */
  readonly ready: Promise<void>;
  /** Resolves when the child is gone, for whatever reason. */
  readonly exited: Promise<void>;
  private readonly proc: ChildProcess;
  /** The node process inside the namespaces, as this PID namespace numbers it. */
  private nodePid: number | undefined;
  private readonly stdout = new ChildMessageLines((message) => this.onMessage(message), () => this.kill({ kind: 'too_large' }));
  private stderrTail = '';
  private gone = false;
  private killedFor: ChildOutcome | undefined;
  private onOutcome: ((outcome: ChildOutcome) => void) | undefined;
  private readonly watchdog: NodeJS.Timeout;
  private resolveReady!: () => void;
  private rejectReady!: (err: Error) => void;
  private isReady = false;
  /** How Pyodide started in this child, once it is ready. */
  boot: 'snapshot' | 'fresh' | undefined;

  constructor(command: ChildCommand, private readonly options: RunnerChildOptions) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // A rejection nobody awaits (the pool was closed meanwhile) must not crash the service.
    this.ready.catch(() => {});
    this.proc = spawn(command.command, command.args, { env: command.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdin?.on('error', () => {}); // EPIPE when the child is already dead: its exit says why
    this.proc.stdout?.setEncoding('utf8'); // decodes characters split across chunks
    this.proc.stdout?.on('data', (chunk: string) => this.stdout.push(chunk));
    this.proc.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    this.exited = new Promise<void>((resolve) => {
      this.proc.once('close', (code, signal) => {
        this.gone = true;
        clearInterval(this.watchdog);
        clearTimeout(readyTimer);
        const detail = this.describeExit(code, signal);
        this.rejectReady(new Error(detail));
        this.finish(this.killedFor ?? { kind: 'died', detail });
        resolve();
      });
      this.proc.once('error', (err) => {
        // spawn itself failed (ENOENT...): 'close' follows.
        this.stderrTail += `\n${err.message}`;
      });
    });
    const readyTimer = setTimeout(() => {
      if (!this.isReady) this.kill({ kind: 'died', detail: `did not load Pyodide within ${options.readyTimeoutMs} ms` });
    }, options.readyTimeoutMs);
    this.watchdog = setInterval(() => this.checkMemory(), WATCHDOG_INTERVAL_MS);
  }

  /** Sends the job and resolves with how it ended; the child is killed afterwards in every case. */
  run(job: CodeRunRequest, timeoutMs: number): Promise<ChildOutcome> {
    return new Promise<ChildOutcome>((resolve) => {
      const timer = setTimeout(() => this.kill({ kind: 'timeout' }), timeoutMs);
      this.onOutcome = (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      if (this.gone) {
        this.finish(this.killedFor ?? { kind: 'died', detail: 'the child had already exited' });
        return;
      }
      this.proc.stdin?.end(`${JSON.stringify(job)}\n`);
    });
  }

  /** SIGKILL the whole session (unshare, and through --kill-child the node inside). */
  kill(reason?: ChildOutcome): void {
    if (reason && !this.killedFor) this.killedFor = reason;
    if (this.gone) return;
    const pid = this.proc.pid;
    for (const target of [pid === undefined ? undefined : -pid, this.nodePid, pid]) {
      if (target === undefined) continue;
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  private finish(outcome: ChildOutcome): void {
    const callback = this.onOutcome;
    this.onOutcome = undefined;
    callback?.(outcome);
  }

  private onMessage(message: ChildMessage): void {
    if (message.type === 'ready') {
      // Only the first line counts: later ones may come from user code.
      if (!this.isReady) this.boot = message.boot;
      this.isReady = true;
      this.resolveReady();
    } else if (this.onOutcome) {
      this.finish({ kind: 'done', message });
    }
  }

  /** The RSS watchdog: Pyodide's wasm memory is not bounded by V8's heap flags. */
  private checkMemory(): void {
    if (this.gone) return;
    this.nodePid ??= this.findNodePid();
    if (this.nodePid === undefined) return;
    let status: string;
    try {
      status = readFileSync(`/proc/${this.nodePid}/status`, 'utf8');
    } catch {
      return; // exiting
    }
    const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
    if (rssKb > this.options.memoryMb * 1024) this.kill({ kind: 'memory' });
  }

  /** unshare --fork's only child, which execs setpriv, prlimit and then node under the same PID. */
  private findNodePid(): number | undefined {
    const pid = this.proc.pid;
    if (pid === undefined) return undefined;
    try {
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
      const first = Number(children.split(/\s+/)[0]);
      return Number.isInteger(first) && first > 0 ? first : undefined;
    } catch {
      return undefined;
    }
  }

  private describeExit(code: number | null, signal: NodeJS.Signals | null): string {
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    const lastLine = this.stderrTail.trim().split('\n').filter(Boolean).pop();
    return lastLine ? `${how}: ${lastLine}` : how;
  }
}
