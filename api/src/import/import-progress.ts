import type { LiveBus } from '../live/live-bus.js';
import { publishToUser } from '../live/workspace-hub.js';

/** At most one frame per this many ms (and always the first and the last): a bar to redraw, not a log. */
export const IMPORT_PROGRESS_EVERY_MS = 100;

/**
 * The server's phase of one import, told to the importing user's workspace sockets (and no one
 * else's) as `import_progress` frames: rows stored so far, of all the import's rows. Over the
 * live bus, so the socket may be on another api process. Lost frames cost nothing: the upload's
 * answer still ends the import in the client.
 */
export class ImportProgress {
  #last = Number.NEGATIVE_INFINITY;
  #sent = -1;

  constructor(
    private readonly bus: LiveBus,
    private readonly userId: string,
    private readonly importId: string,
    private readonly total: number,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `stored` rows of `total` are written (not committed yet: the answer says when they are). */
  report(stored: number): void {
    const at = this.now();
    if (stored === this.#sent || (stored < this.total && at - this.#last < IMPORT_PROGRESS_EVERY_MS)) return;
    this.#last = at;
    this.#sent = stored;
    const frame = { type: 'import_progress' as const, data: { import_id: this.importId, rows_stored: stored, rows_total: this.total } };
    publishToUser(this.bus, this.userId, frame).catch((err) => this.log.warn({ err }, 'import progress not published'));
  }
}
