import { LIVE_SHEET_QUEUE_MAX_BYTES, LIVE_SHEET_QUEUE_MAX_OPS } from '@tessera/contracts';

/** The most operations and cells one group commit takes (one transaction; the rest wait for the next). */
export const GROUP_MAX_OPS = 500;
export const GROUP_MAX_CELLS = 10_000;
/**
 * Groups of a sheet start at most this often. A lone operation on a quiet sheet still goes at
 * once; operations that follow within the window wait for it to end and go together. What a
 * group costs does not depend much on its size (a transaction and its commit, one write per
 * socket: 200 sockets cost about as much as the database), so without it a sheet edited at
 * 80 ops/s paid a whole commit and 200 writes per operation, ten times the CPU per operation
 * of one at 1,000 ops/s; and a sheet at 1,000 ops/s made a group every few milliseconds.
 * The price: an operation waits up to this long for its group (up to GROUP_MAX_WAIT_MS on a
 * sheet whose groups stay small).
 */
export const GROUP_WINDOW_MS = 25;
/**
 * Past the window, a group smaller than GROUP_FILL_OPS waits for more operations, until it has
 * that many or GROUP_MAX_WAIT_MS have passed since the previous group of its sheet started: the
 * window stretches from 25 to 50 ms on a sheet edited at under about 300 ops/s, and stays 25 ms
 * on a busier one (whose groups fill within it). Each group costs about the same whatever its
 * size (a transaction; a write to each of the sheet's sockets: 200 sockets cost about as much as
 * the database), so at 80 ops/s groups of 2 cost ~10× the CPU per operation of groups of 25 at
 * 1,000 ops/s; groups of 4 halve that. The price: at such rates an operation waits up to 50 ms
 * for its group instead of 25 (a lone operation on a quiet sheet still goes at once).
 */
export const GROUP_FILL_OPS = 8;
export const GROUP_MAX_WAIT_MS = 50;

/** How long a small group may wait for more past the window (see GROUP_FILL_OPS). */
export interface GroupFill {
  /** A group of at least this many items goes at the window's end. */
  items: number;
  /** A smaller one goes when it has that many, or this long after the previous group's start. */
  maxWaitMs: number;
}

/**
 * Group commit per key (a sheet): while a group of a sheet is being committed, the items that
 * arrive for it wait; when it is done, all the waiting ones (up to the bounds) go as the next
 * group, in arrival order. An idle sheet commits a lone item at once, so a quiet sheet pays no
 * delay, and a busy one pays one transaction per group instead of one per operation; a group
 * starts no sooner than `windowMs` after the previous one of its key (GROUP_WINDOW_MS), so the
 * groups of a busy sheet are few and full. Other sheets proceed in parallel.
 *
 * What waits per key is bounded (count and bytes, QueueBounds): past either bound `submit`
 * refuses the item (the hub answers 'The sheet is busy') and nothing of it is kept.
 */
export interface QueueBounds<T> {
  /** Items waiting per key, beside the group being committed. */
  maxItems: number;
  /** Their summed `bytes` per key. */
  maxBytes: number;
  /** What an item costs towards maxBytes (the hub: its frame's size). */
  bytes(item: T): number;
}

export class OperationBatcher<T> {
  readonly #waiting = new Map<string, T[]>();
  readonly #busy = new Set<string>();
  /** Bytes of the items waiting per key (QueueBounds.bytes). */
  readonly #waitingBytes = new Map<string, number>();
  /** A key whose small group waits for more past its window: ends the wait once it has `fill.items`. */
  readonly #filling = new Map<string, { done: () => void; timer: NodeJS.Timeout }>();

  constructor(
    /** Commits one group; must not throw (it reports its own failures). */
    private readonly commit: (key: string, group: T[]) => Promise<void>,
    /** The cells an item writes (the group's cell bound). */
    private readonly weight: (item: T) => number,
    private readonly onError: (err: unknown) => void,
    private readonly maxItems = GROUP_MAX_OPS,
    private readonly maxWeight = GROUP_MAX_CELLS,
    private readonly bounds: QueueBounds<T> = { maxItems: LIVE_SHEET_QUEUE_MAX_OPS, maxBytes: LIVE_SHEET_QUEUE_MAX_BYTES, bytes: () => 0 },
    private readonly windowMs = GROUP_WINDOW_MS,
    private readonly fill: GroupFill = { items: GROUP_FILL_OPS, maxWaitMs: GROUP_MAX_WAIT_MS },
  ) {}

  /** Queues `item` for its key's next group; false (nothing kept) when the key's queue is full. */
  submit(key: string, item: T): boolean {
    const waiting = this.#waiting.get(key);
    const bytes = this.bounds.bytes(item);
    const queuedBytes = this.#waitingBytes.get(key) ?? 0;
    if ((waiting?.length ?? 0) >= this.bounds.maxItems || queuedBytes + bytes > this.bounds.maxBytes) return false;
    if (waiting) waiting.push(item);
    else this.#waiting.set(key, [item]);
    this.#waitingBytes.set(key, queuedBytes + bytes);
    if (!this.#busy.has(key)) void this.#drain(key);
    else {
      const filling = this.#filling.get(key);
      // An item now waits on the timer: it keeps the process alive again.
      filling?.timer.ref();
      if ((waiting?.length ?? 1) >= this.fill.items) filling?.done();
    }
    return true;
  }

  /** Items waiting for `key` (not counting the group being committed). */
  queued(key: string): number {
    return this.#waiting.get(key)?.length ?? 0;
  }

  async #drain(key: string): Promise<void> {
    this.#busy.add(key);
    // The key stays busy until the window of its last group is over (and the longest wait for more,
    // GROUP_FILL_OPS): what arrives meanwhile waits and goes as one group; an item after it finds the
    // key idle and goes at once.
    let lastStart = -Infinity;
    try {
      for (;;) {
        const wait = lastStart + this.windowMs - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        // A small group waits for more, up to maxWaitMs after the last start (GROUP_FILL_OPS). With
        // nothing waiting yet it waits too: an item that comes meanwhile joins what follows it instead
        // of going alone (a sheet whose operations paused for a window made groups of one); past
        // maxWaitMs with nothing waiting the key goes idle, and the next item goes at once.
        const more = lastStart + this.fill.maxWaitMs - performance.now();
        const count = this.#waiting.get(key)?.length ?? 0;
        if (more > 0 && count < this.fill.items) await this.#fillFor(key, more, count > 0);
        const waiting = this.#waiting.get(key);
        if (!waiting || waiting.length === 0) break;
        lastStart = performance.now();
        // The first item always goes, whatever its weight; then as many as fit the bounds.
        let n = 1;
        let weight = this.weight(waiting[0]);
        while (n < waiting.length && n < this.maxItems && weight + this.weight(waiting[n]) <= this.maxWeight) weight += this.weight(waiting[n++]);
        const group = waiting.splice(0, n);
        const left = (this.#waitingBytes.get(key) ?? 0) - group.reduce((sum, item) => sum + this.bounds.bytes(item), 0);
        if (waiting.length === 0) {
          this.#waiting.delete(key);
          this.#waitingBytes.delete(key);
        } else this.#waitingBytes.set(key, left);
        try {
          await this.commit(key, group);
        } catch (err) {
          this.onError(err);
        }
        // A turn of the event loop between groups: the group's frames go out (they leave at the
        // end of a turn, see FrameOutbox) and operations that arrived meanwhile are read and join
        // the next group. An embedded database (PGlite) answers without yielding to the loop.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.#busy.delete(key);
    }
  }

  /** Waits `ms`, or less when `submit` fills the key's group; `holding`: items are waiting. */
  #fillFor(key: string, ms: number, holding: boolean): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#filling.delete(key);
        resolve();
      };
      const timer = setTimeout(done, ms);
      // A key waiting with nothing queued holds no one's operation: not what keeps a process alive.
      if (!holding) timer.unref();
      this.#filling.set(key, { done, timer });
    });
  }
}
