import { JOB_QUEUE_FULL_MESSAGE } from '@tessera/contracts';

/**
 * The one scheduler in front of the code runner and the schedule solver (issue 17 §1). A job is
 * one /hybrid call: it holds a slot from the moment it may start until its reply is written. A
 * job runs when its user has fewer than `perUser` jobs running (and, for a solve, fewer than
 * `solvesPerUser` solves) and the instance has a free slot of its kind; otherwise it waits in one
 * first-come queue of at most `queueMax` jobs, told its position as it moves. A job whose signal
 * aborts while it waits leaves the queue and never starts.
 */

/** code: a Pyodide child (Direct Exec, AI Powered, backward); solve: a HiGHS worker. */
export type JobKind = 'code' | 'solve';

export interface JobLimits {
  /** Jobs one user may have running at once, of any kind. */
  perUser: number;
  /** Solves one user may have running at once. */
  solvesPerUser: number;
  /** Jobs that may wait on this instance; one more is refused (JobQueueFullError). */
  queueMax: number;
  /** Jobs of each kind running at once on this instance. */
  capacity: Record<JobKind, number>;
}

/** The queue is full: nothing was started or queued. */
export class JobQueueFullError extends Error {
  override readonly name = 'JobQueueFullError';
  constructor() {
    super(JOB_QUEUE_FULL_MESSAGE);
  }
}

export interface JobOptions {
  /** Aborting it while the job waits takes the job out of the queue (`started` rejects with its reason). */
  signal?: AbortSignal;
  /** Told each new queue position (1 runs next) after the first, which `position` gives. */
  onQueued?: (position: number) => void;
}

export interface Job {
  readonly kind: JobKind;
  readonly userId: string;
  /** 0 once running; else its place in the queue (1 runs next). */
  readonly position: number;
  /** Resolves when the job holds its slot; rejects with the signal's reason if it is aborted while waiting. */
  readonly started: Promise<void>;
  /** Frees the slot, or leaves the queue; calling it again does nothing. */
  release(): void;
  /**
   * A solve slot for this running job: a solve job already holds one; a code job that turns out
   * to solve (AI Powered's schedule requests) waits for one, ahead of the jobs not yet started
   * (it was admitted already). The function returned frees it.
   */
  solveSlot(signal?: AbortSignal): Promise<() => void>;
}

export interface JobSchedulerStats {
  running: Record<JobKind, number>;
  queued: number;
}

interface Waiter {
  userId: string;
  kind: JobKind;
  /** A running code job waiting for a solve slot: counts no second running job, and is not a queued job. */
  upgrade: boolean;
  start: () => void;
  onQueued?: (position: number) => void;
  position: number;
}

const noop = () => {};

export class JobScheduler {
  private readonly queue: Waiter[] = [];
  private readonly running = new Map<string, number>();
  private readonly solving = new Map<string, number>();
  private readonly inUse: Record<JobKind, number> = { code: 0, solve: 0 };

  constructor(readonly limits: JobLimits) {}

  /**
   * Starts the job now when it may run, else queues it; throws JobQueueFullError (synchronously:
   * a route answers 429 before opening its stream) when it would wait and the queue is full.
   */
  submit(userId: string, kind: JobKind, options: JobOptions = {}): Job {
    const { signal } = options;
    let state: 'waiting' | 'running' | 'done' = 'waiting';
    let resolveStarted!: () => void;
    let rejectStarted!: (reason: unknown) => void;
    const started = new Promise<void>((resolve, reject) => {
      resolveStarted = resolve;
      rejectStarted = reject;
    });
    started.catch(noop); // a job aborted while waiting may have nobody awaiting it
    const onAbort = () => {
      if (state !== 'waiting') return;
      state = 'done';
      this.leave(waiter);
      rejectStarted(signal?.reason);
    };
    const waiter: Waiter = {
      userId,
      kind,
      upgrade: false,
      position: 0,
      ...(options.onQueued ? { onQueued: options.onQueued } : {}),
      start: () => {
        state = 'running';
        waiter.position = 0;
        signal?.removeEventListener('abort', onAbort);
        resolveStarted();
      },
    };
    const scheduler = this;
    const job: Job = {
      kind,
      userId,
      get position() {
        return waiter.position;
      },
      started,
      release() {
        if (state === 'running') scheduler.free(userId, kind, false);
        else if (state === 'waiting') {
          signal?.removeEventListener('abort', onAbort);
          scheduler.leave(waiter);
          rejectStarted(new Error('The job was released before it started'));
        }
        state = 'done';
      },
      solveSlot(slotSignal) {
        if (state !== 'running') return Promise.reject(new Error('Only a running job can take a solve slot'));
        if (kind === 'solve') return Promise.resolve(noop);
        return scheduler.upgrade(userId, slotSignal);
      },
    };
    if (signal?.aborted) {
      state = 'done';
      rejectStarted(signal.reason);
      return job;
    }
    if (this.canStart(waiter)) {
      this.take(waiter);
      waiter.start();
      return job;
    }
    if (this.queuedCount() >= this.limits.queueMax) throw new JobQueueFullError();
    this.queue.push(waiter);
    waiter.position = this.queuedCount();
    signal?.addEventListener('abort', onAbort, { once: true });
    return job;
  }

  stats(): JobSchedulerStats {
    return { running: { ...this.inUse }, queued: this.queuedCount() };
  }

  /** A running code job's wait for a solve slot (see Job.solveSlot). */
  private upgrade(userId: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let freed = false;
    const release = () => {
      if (freed) return;
      freed = true;
      this.free(userId, 'solve', true);
    };
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.leave(waiter);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        userId,
        kind: 'solve',
        upgrade: true,
        position: 0,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      if (this.canStart(waiter)) {
        this.take(waiter);
        waiter.start();
        return;
      }
      // Ahead of the jobs not yet started, behind earlier upgrades.
      const firstNew = this.queue.findIndex((w) => !w.upgrade);
      this.queue.splice(firstNew < 0 ? this.queue.length : firstNew, 0, waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private canStart(w: Waiter): boolean {
    if (!w.upgrade && (this.running.get(w.userId) ?? 0) >= this.limits.perUser) return false;
    if (w.kind === 'solve' && (this.solving.get(w.userId) ?? 0) >= this.limits.solvesPerUser) return false;
    return this.inUse[w.kind] < this.limits.capacity[w.kind];
  }

  private take(w: Waiter): void {
    if (!w.upgrade) this.running.set(w.userId, (this.running.get(w.userId) ?? 0) + 1);
    if (w.kind === 'solve') this.solving.set(w.userId, (this.solving.get(w.userId) ?? 0) + 1);
    this.inUse[w.kind] += 1;
  }

  private free(userId: string, kind: JobKind, upgrade: boolean): void {
    if (!upgrade) decrement(this.running, userId);
    if (kind === 'solve') decrement(this.solving, userId);
    this.inUse[kind] -= 1;
    this.pump();
  }

  private leave(w: Waiter): void {
    const index = this.queue.indexOf(w);
    if (index >= 0) this.queue.splice(index, 1);
    this.pump();
  }

  /** Starts every waiting job that may run now, in queue order, then tells the others their new places. */
  private pump(): void {
    const starting: Waiter[] = [];
    for (let i = 0; i < this.queue.length; ) {
      const w = this.queue[i];
      if (this.canStart(w)) {
        this.queue.splice(i, 1);
        this.take(w);
        starting.push(w);
      } else i += 1;
    }
    let position = 0;
    const moved: Waiter[] = [];
    for (const w of this.queue) {
      if (w.upgrade) continue;
      position += 1;
      if (w.position !== position) {
        w.position = position;
        moved.push(w);
      }
    }
    for (const w of starting) w.start();
    for (const w of moved) w.onQueued?.(w.position);
  }

  private queuedCount(): number {
    return this.queue.reduce((n, w) => (w.upgrade ? n : n + 1), 0);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 0) - 1;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
