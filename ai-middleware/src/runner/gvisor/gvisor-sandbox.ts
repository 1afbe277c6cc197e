import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CODE_RUN_FIGURE_MAX_BYTES, CODE_RUN_FIGURE_MAX_SIDE_PX, CODE_RUN_MAX_FIGURES, type CodeRunRequest } from '@tessera/contracts';
import { ChildMessageLines } from '../child-message-lines.js';
import type { ChildMessage } from '../child-message.schema.js';
import type { ChildOutcome } from '../runner-child.js';
import type { RunnerWorker } from '../runner-worker.js';
import { sandboxLimits, writeBundle } from './gvisor-bundle.js';
import { CGROUP_ROOT, type SandboxCgroup, makeSandboxCgroup, oomKilled } from './gvisor-cgroup.js';
import { reapProcessesNaming, removeCgroups } from './gvisor-leftovers.js';
import { sandboxJobLine } from './sandbox-job.js';

/** The bootstrap (bootstrap.py), passed with `python3 -c`: the same path from src/ (tsx) and dist/ (built). */
const BOOTSTRAP = readFileSync(new URL('../../../src/runner/gvisor/bootstrap.py', import.meta.url), 'utf8');
const STDERR_TAIL_CHARS = 2000;
/** How often runsc's own memory cgroup (when the service could not make it) is read for an out-of-memory kill. */
const MEMORY_POLL_MS = 100;
const DELETE_TIMEOUT_MS = 10_000;
/** How long a sandbox that answered may take to exit by itself before it is deleted. */
const EXIT_GRACE_MS = 2000;

export interface GvisorHost {
  /** Absolute paths of the tools. */
  runsc: string;
  setpriv: string;
  /** runsc's state root (--root), private to this service. */
  stateDir: string;
  /** Where each sandbox's bundle is written, and removed after. */
  bundlesDir: string;
  /** Where the images sandboxes are restored from are kept (gvisor-image.ts), only root may enter. */
  imagesDir: string;
}

export interface GvisorSandboxOptions {
  memoryMb: number;
  /** How long the sandbox may take to import pandas (several start at once on 2 cores). */
  readyTimeoutMs: number;
  outputCapChars: number;
  /**
   * A checkpoint (gvisor-image.ts) to restore instead of starting Python cold: made from a sandbox of
   * the same options that had said ready and run no job.
   */
  image?: string;
  /** Called when the restore of `image` failed (not when the sandbox was killed meanwhile). */
  onRestoreFailed?: () => void;
}

/** The bootstrap's first line for a restored sandbox: it says ready again (bootstrap.py). */
const WAKE_LINE = '{"wake":1}\n';

let counter = 0;

/**
 * One gVisor sandbox seen from the service: `runsc run` of a fresh bundle whose Python imports
 * pandas and says ready, takes exactly one job on stdin, answers on stdout and exits. The service
 * enforces the wall clock (the sandbox is deleted at the limit); memory, processes and /tmp are
 * bounded inside (rlimits, tmpfs size) and on the host (the sandbox's cgroup: its memory one made by
 * the service, gvisor-cgroup.ts, so that an out-of-memory kill is still seen once the sandbox is gone).
 * Killed or done, the sandbox is deleted (`runsc delete --force`), its cgroups and bundle removed
 * before `exited` resolves.
 */
export class GvisorSandbox implements RunnerWorker {
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  /** The sandbox's name for runsc, and its cgroup's. */
  readonly id = `tessera-${process.pid}-${++counter}-${randomBytes(3).toString('hex')}`;
  /** How it starts: restored from the service's image (snapshot), or Python started cold (fresh). */
  readonly boot: 'snapshot' | 'fresh';
  private readonly bundle: string;
  private readonly proc: ChildProcess;
  private readonly stdout = new ChildMessageLines((message) => this.onMessage(message), () => this.kill({ kind: 'too_large' }));
  private stderrTail = '';
  private gone = false;
  private killedFor: ChildOutcome | undefined;
  private killRequested = false;
  private outOfMemory = false;
  /** The job's answer arrived: the sandbox's Python exits right after it. */
  private answered = false;
  private onOutcome: ((outcome: ChildOutcome) => void) | undefined;
  private resolveReady!: () => void;
  private rejectReady!: (err: Error) => void;
  private isReady = false;
  private deleting: Promise<void> | undefined;
  /** The memory cgroup the service made, read after the sandbox has exited; undefined: runsc's own. */
  private readonly cgroup: SandboxCgroup | undefined;
  private readonly memoryPoll: NodeJS.Timeout | undefined;

  constructor(private readonly host: GvisorHost, options: GvisorSandboxOptions) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // A rejection nobody awaits (the pool was closed meanwhile) must not crash the service.
    this.ready.catch(() => {});
    this.bundle = path.join(host.bundlesDir, this.id);
    mkdirSync(this.bundle, { mode: 0o755 });
    writeBundle(this.bundle, {
      id: this.id,
      args: [
        '/usr/bin/python3', '-I', '-c', BOOTSTRAP, String(options.outputCapChars),
        String(CODE_RUN_MAX_FIGURES), String(CODE_RUN_FIGURE_MAX_BYTES), String(CODE_RUN_FIGURE_MAX_SIDE_PX),
      ],
      memoryMb: options.memoryMb,
    });
    this.cgroup = makeSandboxCgroup(this.id, sandboxLimits(options.memoryMb));
    this.boot = options.image ? 'snapshot' : 'fresh';
    // A restore takes the new bundle's mounts, network and cgroup (limits), and the image's processes.
    const start = options.image ? ['restore', '--image-path', options.image] : ['run'];
    // setpriv --pdeathsig: if the service dies, runsc dies, and its attached sandbox with it.
    this.proc = spawn(
      host.setpriv,
      ['--pdeathsig=KILL', host.runsc, '--root', host.stateDir, '--network=none', '--platform=ptrace', ...start, '--bundle', this.bundle, this.id],
      { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.proc.stdin?.on('error', () => {}); // EPIPE when the sandbox is already gone: its exit says why
    if (options.image) this.proc.stdin?.write(WAKE_LINE);
    this.proc.stdout?.setEncoding('utf8');
    this.proc.stdout?.on('data', (chunk: string) => this.stdout.push(chunk));
    this.proc.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const readyTimer = setTimeout(() => {
      if (!this.isReady) {
        const what = options.image ? 'was not restored' : 'did not import pandas';
        this.kill({ kind: 'died', detail: `${what} within ${options.readyTimeoutMs} ms` });
      }
    }, options.readyTimeoutMs);
    // runsc removes a cgroup it made as the sandbox exits: its count is read while it is there.
    if (!this.cgroup) this.memoryPoll = setInterval(() => this.checkMemory(), MEMORY_POLL_MS);
    this.exited = new Promise<void>((resolve) => {
      this.proc.once('error', (err) => {
        this.stderrTail += `\n${err.message}`; // spawn itself failed (ENOENT...): 'close' follows
      });
      this.proc.once('close', (code, signal) => {
        this.gone = true;
        clearTimeout(readyTimer);
        this.checkMemory();
        clearInterval(this.memoryPoll);
        const detail = this.describeExit(code, signal);
        // A restore that ended or hung before ready, not one the service killed meanwhile (the pool closed).
        if (options.image && !this.isReady && (!this.killRequested || this.killedFor?.kind === 'died')) options.onRestoreFailed?.();
        this.rejectReady(new Error(detail));
        // The host's OOM killer ended the sandbox: its cgroup limit (several processes' memory) was hit.
        this.finish(this.killedFor ?? (this.outOfMemory ? { kind: 'memory' } : { kind: 'died', detail }));
        // Normally `runsc run` deletes its sandbox itself; after a kill it may not have. Then every
        // host process of the sandbox (its kernel and gofer name the bundle) is waited for.
        const cleanup = code === 0 && !this.killedFor ? Promise.resolve() : this.deleteSandbox();
        void cleanup
          .then(() => reapProcessesNaming(this.bundle))
          .then(() => removeCgroups(this.id))
          .then(() => {
            rmSync(this.bundle, { recursive: true, force: true });
            resolve();
          });
      });
    });
  }

  run(job: CodeRunRequest, timeoutMs: number): Promise<ChildOutcome> {
    return new Promise<ChildOutcome>((resolve) => {
      const timer = setTimeout(() => this.kill({ kind: 'timeout' }), timeoutMs);
      this.onOutcome = (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      if (this.gone) {
        this.finish(this.killedFor ?? { kind: 'died', detail: 'the sandbox had already exited' });
        return;
      }
      this.proc.stdin?.end(sandboxJobLine(job));
    });
  }

  /**
   * Deletes the sandbox (every process in it, its gofer, its cgroup), then ends `runsc run`. After
   * its answer the sandbox is exiting by itself: it gets a moment first, which saves a `runsc delete`.
   */
  kill(reason?: ChildOutcome): void {
    this.killRequested = true;
    if (reason && !this.killedFor) this.killedFor = reason;
    if (this.gone) return;
    if (!reason && this.answered && !this.killedFor) {
      setTimeout(() => this.kill({ kind: 'closed' }), EXIT_GRACE_MS).unref();
      return;
    }
    // The outcome is known now: nothing the sandbox prints from here on counts.
    if (this.killedFor) this.finish(this.killedFor);
    void this.deleteSandbox().then(() => {
      try {
        this.proc.kill('SIGKILL');
      } catch {
        // already gone
      }
    });
  }

  private deleteSandbox(): Promise<void> {
    this.deleting ??= new Promise<void>((resolve) => {
      execFile(this.host.runsc, ['--root', this.host.stateDir, 'delete', '--force', this.id], { timeout: DELETE_TIMEOUT_MS }, () => {
        this.deleting = undefined; // a second delete after `runsc run` ends catches what a racing start left
        resolve();
      });
    });
    return this.deleting;
  }

  private finish(outcome: ChildOutcome): void {
    const callback = this.onOutcome;
    this.onOutcome = undefined;
    callback?.(outcome);
  }

  private onMessage(message: ChildMessage): void {
    if (message.type === 'ready') {
      this.isReady = true;
      this.resolveReady();
    } else if (this.onOutcome && !this.killedFor) {
      this.answered = true;
      this.finish({ kind: 'done', message });
    }
  }

  /** Whether the host's OOM killer acted in the sandbox's memory cgroup (v1 or v2 layout). */
  private checkMemory(): void {
    if (this.outOfMemory) return;
    const files = this.cgroup
      ? [this.cgroup.oomFile]
      : [`${CGROUP_ROOT}/memory/${this.id}/memory.oom_control`, `${CGROUP_ROOT}/${this.id}/memory.events`];
    this.outOfMemory = files.some(oomKilled);
  }

  private describeExit(code: number | null, signal: NodeJS.Signals | null): string {
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    const lastLine = this.stderrTail.trim().split('\n').filter(Boolean).pop();
    return lastLine ? `${how}: ${lastLine}` : how;
  }
}
