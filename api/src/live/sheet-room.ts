import type { LiveServerFrame } from '@tessera/contracts';

/**
 * Something that changes the sheet's version, as it reaches this process (from the live bus):
 * an applied operation, or a point where everyone must get the whole sheet (`sync`: a PUT, a
 * restore, a reload_request — without a version when it does not change the sheet).
 */
export type RoomItem = { kind: 'operation'; version: number; frame: LiveServerFrame } | { kind: 'sync'; version?: number };

export type SyncFrame = Extract<LiveServerFrame, { type: 'sync' }>;

export interface SheetRoomDeps<C> {
  sendText(conn: C, text: string): void;
  /**
   * The sheet as it is now, as a sync frame handed to `use` (nothing when the sheet is gone):
   * with its cells only when `withCells` (else its version, name and metadata). Resolves once
   * `use` has returned (a read with the cells holds a process slot until then: live-hub.ts).
   */
  readSync(withCells: boolean, use: (frame: SyncFrame) => void): Promise<void>;
  /** Whether `conn`'s page holds the whole grid (contracts LIVE_GRIDS): its syncs carry the cells. */
  wantsCells(conn: C): boolean;
  /**
   * The operation frames of the versions after `after` up to `upTo` from the op log, oldest
   * first, or undefined when they cannot be replayed as operations (a whole-grid change, a
   * version folded by pruning): the room then sends a sync instead.
   */
  readOps(after: number, upTo: number): Promise<{ version: number; frame: LiveServerFrame }[] | undefined>;
  onError(err: unknown): void;
  /** Versions that did not arrive on the bus in time and were read from the op log (metrics). */
  onGapRead?(versions: number): void;
}

interface Held {
  version: number;
  /** A sync is sent at its version even to a socket that holds it (a reload_request); an operation only to one behind it. */
  sync: boolean;
  text: string;
  /** A sync's frame without the cells, for the sockets whose page holds the sheet windowed (`text` has them when a socket wanted them). */
  lightText?: string;
  ackText?: string;
}

interface ConnState {
  /** The last version sent to this socket. */
  version: number;
  /** Joining: what the room delivered while the socket caught up, sent once it is done. */
  backlog: Held[] | null;
}

/** How long a missing version is waited for (another process published it later) before it is read from the op log. */
export const GAP_WAIT_MS = 150;

/**
 * The sockets of one sheet in this process, and the order in which they get its versions.
 *
 * Versions come from PostgreSQL (the sheet's row lock makes them consecutive and commits them in
 * order), but several api processes publish on the bus after their commits, so a process may
 * hear version 8 before version 7. The room delivers strictly in version order, with no gap: a
 * version that arrives early waits until the missing one arrives; after GAP_WAIT_MS the missing
 * ones are read from the op log (a lost bus message costs a short delay, never an op). So every
 * socket gets its versions in order: an `operation` frame (or, for the sender, the `ack`) per
 * version, or a `sync` that jumps to a version.
 */
export class SheetRoom<C> {
  readonly #conns = new Map<C, ConnState>();
  readonly #pending = new Map<number, RoomItem & { version: number }>();
  /** Versions this process applied for one of its sockets: that socket gets the ack instead of the operation. */
  readonly #acks = new Map<number, { conn: C; text: string }>();
  /** Frames held until a version is delivered (sendAfter). */
  readonly #after = new Map<number, { conn: C; text: string }[]>();
  /** The last version delivered; undefined until `start`. */
  #delivered: number | undefined;
  #syncRequested = false;
  #working = false;
  #gapTimer: NodeJS.Timeout | undefined;
  #gapExpired = false;
  #closed = false;

  constructor(private readonly deps: SheetRoomDeps<C>) {}

  get size(): number {
    return this.#conns.size;
  }

  get delivered(): number | undefined {
    return this.#delivered;
  }

  connections(): IterableIterator<C> {
    return this.#conns.keys();
  }

  has(conn: C): boolean {
    return this.#conns.has(conn);
  }

  /** The room knows the sheet's version (read after subscribing to the bus): delivery begins. */
  start(version: number): void {
    this.#delivered = version;
    this.#dropDelivered();
    void this.#pump();
  }

  /** A joining socket: what the room delivers from now on is held until `caughtUp`. */
  add(conn: C): void {
    this.#conns.set(conn, { version: -1, backlog: [] });
  }

  /**
   * The socket holds the sheet at `version` (it was sent the ops or a sync up to there), or,
   * without one, takes everything delivered since it joined. Then the held frames follow.
   */
  caughtUp(conn: C, version?: number): void {
    const state = this.#conns.get(conn);
    if (!state?.backlog) return;
    const held = state.backlog;
    state.backlog = null;
    state.version = version ?? (held.length > 0 ? held[0].version - 1 : (this.#delivered ?? 0));
    for (const h of held) this.#sendHeld(conn, state, h);
  }

  remove(conn: C): void {
    this.#conns.delete(conn);
  }

  /** To every socket but `except`, at once (presence, selections, proposals: frames without a version). */
  broadcast(text: string, except?: (conn: C) => boolean): void {
    for (const conn of this.#conns.keys()) if (!except?.(conn)) this.deps.sendText(conn, text);
  }

  /**
   * `conn` sent the operation that became `version`: when the room delivers that version, the
   * sender gets this ack in its place (so its acks too come in version order). Set before the
   * operation is published.
   */
  setAck(version: number, conn: C, frame: LiveServerFrame): void {
    const text = JSON.stringify(frame);
    // Already delivered (read from the op log before this process got here): the ack goes now.
    if (this.#delivered !== undefined && version <= this.#delivered) {
      if (this.#conns.has(conn)) this.deps.sendText(conn, text);
      return;
    }
    this.#acks.set(version, { conn, text });
  }

  /**
   * A frame for `conn` that must not overtake `version` (the ack of a re-sent operation id, when
   * the first one is in the same group commit and not delivered yet): sent right after it.
   */
  sendAfter(version: number, conn: C, frame: LiveServerFrame): void {
    const text = JSON.stringify(frame);
    if (this.#delivered !== undefined && version <= this.#delivered) {
      if (this.#conns.has(conn)) this.deps.sendText(conn, text);
      return;
    }
    const after = this.#after.get(version);
    if (after) after.push({ conn, text });
    else this.#after.set(version, [{ conn, text }]);
  }

  push(item: RoomItem): void {
    if (this.#closed) return;
    if (item.version === undefined) this.#syncRequested = true;
    else if (this.#delivered === undefined || item.version > this.#delivered) this.#pending.set(item.version, item as RoomItem & { version: number });
    void this.#pump();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#gapTimer);
    this.#pending.clear();
    this.#acks.clear();
    this.#after.clear();
  }

  async #pump(): Promise<void> {
    if (this.#working || this.#closed || this.#delivered === undefined) return;
    this.#working = true;
    try {
      while (!this.#closed) {
        const delivered: number = this.#delivered;
        if (this.#syncRequested) {
          this.#syncRequested = false;
          await this.#sync();
          continue;
        }
        const next = this.#pending.get(delivered + 1);
        if (next) {
          this.#pending.delete(next.version);
          if (next.kind === 'sync') await this.#sync();
          else this.#deliver(next.version, JSON.stringify(next.frame));
          continue;
        }
        if (this.#pending.size === 0) {
          clearTimeout(this.#gapTimer);
          this.#gapTimer = undefined;
          this.#gapExpired = false;
          break;
        }
        if (this.#gapExpired) {
          this.#gapExpired = false;
          this.#gapTimer = undefined;
          await this.#fillGap();
          continue;
        }
        this.#gapTimer ??= setTimeout(() => {
          this.#gapExpired = true;
          void this.#pump();
        }, GAP_WAIT_MS);
        break;
      }
    } catch (err) {
      this.deps.onError(err);
    } finally {
      this.#working = false;
    }
  }

  /** The versions between the delivered one and the first held one, from the op log. */
  async #fillGap(): Promise<void> {
    const delivered = this.#delivered ?? 0;
    const upTo = Math.min(...this.#pending.keys()) - 1;
    this.deps.onGapRead?.(upTo - delivered);
    const ops = await this.deps.readOps(delivered, upTo);
    const complete = ops !== undefined && ops.length === upTo - delivered && ops.every((op, i) => op.version === delivered + 1 + i);
    if (!complete) {
      await this.#sync();
      return;
    }
    for (const op of ops) if (op.version > (this.#delivered ?? 0)) this.#deliver(op.version, JSON.stringify(op.frame));
  }

  /**
   * Everyone gets the sheet as it is now; what was held up to its version is dropped. The whole
   * grid is read only when a socket here (joining ones too) holds it whole: a room of windowed
   * pages reads the summary only. A socket that moved to whole after the read gets the frame
   * without cells (its page repairs by reading the sheet).
   */
  async #sync(): Promise<void> {
    const withCells = [...this.#conns.keys()].some((conn) => this.deps.wantsCells(conn));
    let version: number | undefined;
    await this.deps.readSync(withCells, (frame) => {
      if (this.#closed) return;
      version = frame.data.version;
      const { data: _cells, ...light } = frame.data;
      const lightText = JSON.stringify({ ...frame, data: light });
      const held: Held = { version, sync: true, text: withCells ? JSON.stringify(frame) : lightText, lightText };
      for (const [conn, state] of this.#conns) this.#sendHeld(conn, state, held);
    });
    if (version === undefined || this.#closed) return;
    this.#delivered = Math.max(this.#delivered ?? 0, version);
    this.#dropDelivered();
  }

  #deliver(version: number, text: string): void {
    const ack = this.#acks.get(version);
    this.#acks.delete(version);
    // One record for every socket (a joining one keeps it in its backlog); the sender's has its ack.
    const held: Held = { version, sync: false, text };
    for (const [conn, state] of this.#conns) this.#sendHeld(conn, state, ack?.conn === conn ? { ...held, ackText: ack.text } : held);
    this.#delivered = version;
    this.#sendAfter(version);
  }

  #sendHeld(conn: C, state: ConnState, held: Held): void {
    if (state.backlog) {
      state.backlog.push(held);
      return;
    }
    if (held.sync ? held.version < state.version : held.version <= state.version) return;
    this.deps.sendText(conn, held.ackText ?? (held.lightText !== undefined && !this.deps.wantsCells(conn) ? held.lightText : held.text));
    state.version = held.version;
  }

  #dropDelivered(): void {
    const delivered = this.#delivered ?? 0;
    for (const v of this.#pending.keys()) if (v <= delivered) this.#pending.delete(v);
    // A sync jumped over versions applied here: their senders still get their acks.
    for (const [v, ack] of this.#acks) {
      if (v > delivered) continue;
      this.#acks.delete(v);
      if (this.#conns.has(ack.conn)) this.deps.sendText(ack.conn, ack.text);
    }
    for (const v of [...this.#after.keys()]) if (v <= delivered) this.#sendAfter(v);
  }

  #sendAfter(version: number): void {
    const after = this.#after.get(version);
    if (!after) return;
    this.#after.delete(version);
    for (const { conn, text } of after) if (this.#conns.has(conn)) this.deps.sendText(conn, text);
  }
}
