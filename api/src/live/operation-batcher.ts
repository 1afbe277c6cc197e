/** The most operations and cells one group commit takes (one transaction; the rest wait for the next). */
export const GROUP_MAX_OPS = 500;
export const GROUP_MAX_CELLS = 10_000;

/**
 * Group commit per key (a sheet): while a group of a sheet is being committed, the items that
 * arrive for it wait; when it is done, all the waiting ones (up to the bounds) go as the next
 * group, in arrival order. An idle sheet commits a lone item at once, so a quiet sheet pays no
 * delay, and a busy one pays one transaction per group instead of one per operation. Other
 * sheets proceed in parallel.
 */
export class OperationBatcher<T> {
  readonly #waiting = new Map<string, T[]>();
  readonly #busy = new Set<string>();

  constructor(
    /** Commits one group; must not throw (it reports its own failures). */
    private readonly commit: (key: string, group: T[]) => Promise<void>,
    /** The cells an item writes (the group's cell bound). */
    private readonly weight: (item: T) => number,
    private readonly onError: (err: unknown) => void,
    private readonly maxItems = GROUP_MAX_OPS,
    private readonly maxWeight = GROUP_MAX_CELLS,
  ) {}

  submit(key: string, item: T): void {
    const waiting = this.#waiting.get(key);
    if (waiting) waiting.push(item);
    else this.#waiting.set(key, [item]);
    if (!this.#busy.has(key)) void this.#drain(key);
  }

  async #drain(key: string): Promise<void> {
    this.#busy.add(key);
    try {
      for (;;) {
        const waiting = this.#waiting.get(key);
        if (!waiting || waiting.length === 0) break;
        // The first item always goes, whatever its weight; then as many as fit the bounds.
        let n = 1;
        let weight = this.weight(waiting[0]);
        while (n < waiting.length && n < this.maxItems && weight + this.weight(waiting[n]) <= this.maxWeight) weight += this.weight(waiting[n++]);
        const group = waiting.splice(0, n);
        if (waiting.length === 0) this.#waiting.delete(key);
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
}
