import type { AppliedOperation, CellChange, LiveOperation, LiveServerFrame, StructureOperationType } from '@tessera/contracts';

export type SyncData = Extract<LiveServerFrame, { type: 'sync' }>['data'];
type StructureOperation = Extract<LiveOperation, { type: StructureOperationType }>;

export interface LiveSheetOptions {
  /** The version the sheet was loaded at. */
  version: number;
  /** Hands an own operation to the shell's socket (queued there while disconnected). */
  send(operation: LiveOperation): void;
  /** Someone else's cells, to show. */
  applyCells(changes: CellChange[]): void;
  /** Someone else's rows or columns inserted or removed, to show. */
  applyStructure(operation: StructureOperation): void;
  /** The server's whole sheet replaces what is shown. */
  replace(sync: SyncData): void;
  /** The version held changed; `at` is the commit time when an own operation was acknowledged. */
  onVersion(version: number, savedAt: string | null): void;
  /** How many own operations wait for the server's acknowledgement. */
  onPending(count: number): void;
  /** An `error` frame: the save error. */
  onError(message: string): void;
  /** The sheet as the server has it now (GET), to repair a grid that drifted from it. */
  fetch(): Promise<SyncData | null>;
}

type Entry = { kind: 'ack'; id: string; at: string } | { kind: 'op'; operation: AppliedOperation };

const RESYNC_ATTEMPTS = 3;
const cellKey = (row: number, col: number) => `${row}:${col}`;

export function cellChangesOf(operation: LiveOperation): CellChange[] | null {
  if (operation.type === 'cell_update') return [{ row: operation.position.row, col: operation.position.column, value: operation.value }];
  if (operation.type === 'cells_update') return operation.changes;
  return null;
}

/**
 * One client's copy of a live sheet (DESIGN.md § Live collaboration: server-ordered). Own
 * edits are shown at once and sent; the server's frames are applied in version order, each
 * version once: an `ack` ends an own operation, an `operation` is someone else's (or an own
 * one replayed after a lost ack, which counts as its ack).
 *
 * The server applies an own operation after every version this client held when it was
 * sent, so a remote write to a cell that an own pending operation writes is not shown (the
 * own value follows it on the server too). Where positions may differ — rows or columns
 * inserted or removed while the other side had operations in flight, an operation the
 * server refused, a version never received — the grid is marked drifted and replaced with
 * the server's sheet as soon as no own operation is in flight.
 */
export class LiveSheet {
  private held: number;
  /** Own operations not acknowledged yet, in the order sent. */
  private readonly own = new Map<string, { operation: LiveOperation; cells: Set<string> | null }>();
  /** Frames that came before the version before them. */
  private readonly ahead = new Map<number, Entry>();
  private drifted = false;
  private resyncing = false;
  private resyncAttempts = 0;
  private stopped = false;
  private idle: (() => void)[] = [];

  constructor(private readonly options: LiveSheetOptions) {
    this.held = options.version;
  }

  get version(): number {
    return this.held;
  }

  get pending(): number {
    return this.own.size;
  }

  /** Own operations, already shown in the grid. */
  send(operations: readonly LiveOperation[]): void {
    if (this.stopped || operations.length === 0) return;
    for (const operation of operations) {
      const cells = cellChangesOf(operation);
      this.own.set(operation.id, { operation, cells: cells ? new Set(cells.map((c) => cellKey(c.row, c.col))) : null });
      this.options.send(operation);
    }
    this.options.onPending(this.own.size);
  }

  receive(frame: LiveServerFrame): void {
    if (this.stopped) return;
    switch (frame.type) {
      case 'ack':
        if (this.own.has(frame.data.operation_id)) this.queue(frame.data.version, { kind: 'ack', id: frame.data.operation_id, at: frame.data.timestamp });
        return;
      case 'operation': {
        const { version, operation } = frame.data;
        if (this.own.has(operation.id)) this.queue(version, { kind: 'ack', id: operation.id, at: operation.timestamp });
        else this.queue(version, { kind: 'op', operation });
        return;
      }
      case 'sync':
        this.sync(frame.data);
        return;
      case 'error': {
        const id = frame.data.operation_id;
        // Refused: the server never applies it, while the grid shows it.
        if (id !== undefined && this.own.delete(id)) {
          this.drifted = true;
          this.options.onPending(this.own.size);
          this.settle();
        }
        this.options.onError(frame.data.message);
        this.repairWhenIdle();
        return;
      }
      default:
        return;
    }
  }

  /** Resolves once every own operation is acknowledged (or refused), or the sheet is closed. */
  whenSaved(): Promise<void> {
    if (this.own.size === 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    this.settle(true);
  }

  private queue(version: number, entry: Entry): void {
    if (version > this.held) {
      this.ahead.set(version, entry);
      this.drain();
      return;
    }
    // Already held: a sync brought a version that includes this own operation before its ack came.
    if (entry.kind === 'ack' && this.own.delete(entry.id)) {
      this.options.onPending(this.own.size);
      this.settle();
      this.repairWhenIdle();
    }
  }

  private drain(): void {
    let changed = false;
    let savedAt: string | null = null;
    for (;;) {
      const entry = this.ahead.get(this.held + 1);
      if (!entry) {
        if (this.ahead.size === 0) break;
        // A gap: the missing versions may be acks of own operations still on their way. When
        // no own operation can fill it, a version was missed: go on and repair with the server's sheet.
        const acksAhead = [...this.ahead.values()].filter((e) => e.kind === 'ack').length;
        if (this.own.size > acksAhead) break;
        this.drifted = true;
        this.held = Math.min(...this.ahead.keys()) - 1;
        continue;
      }
      this.ahead.delete(this.held + 1);
      this.held += 1;
      changed = true;
      if (entry.kind === 'ack') {
        this.own.delete(entry.id);
        savedAt = entry.at;
      } else {
        this.apply(entry.operation);
      }
    }
    if (changed) {
      this.options.onVersion(this.held, savedAt);
      this.options.onPending(this.own.size);
      this.settle();
    }
    this.repairWhenIdle();
  }

  private apply(operation: AppliedOperation): void {
    const changes = cellChangesOf(operation);
    const ownOps = [...this.own.values()];
    if (changes === null) {
      // Own operations in flight were made on the grid before this change: the server applies them after it, where they were.
      if (ownOps.length > 0) this.drifted = true;
      this.options.applyStructure(operation as StructureOperation);
      return;
    }
    if (ownOps.some((o) => o.cells === null)) this.drifted = true;
    const shown = ownOps.length === 0 ? changes : changes.filter((c) => !ownOps.some((o) => o.cells?.has(cellKey(c.row, c.col))));
    if (shown.length > 0) this.options.applyCells(shown);
  }

  private sync(data: SyncData): void {
    if (data.version < this.held || (data.version === this.held && !this.drifted)) return;
    for (const [version, entry] of this.ahead) {
      if (version > data.version) continue;
      this.ahead.delete(version);
      if (entry.kind === 'ack') this.own.delete(entry.id);
    }
    this.held = data.version;
    this.drifted = false;
    this.resyncAttempts = 0;
    this.options.replace(data);
    // Own operations still in flight come after this version on the server: show them again on top.
    for (const { operation } of this.own.values()) {
      const changes = cellChangesOf(operation);
      if (changes) this.options.applyCells(changes);
      else this.options.applyStructure(operation as StructureOperation);
    }
    this.options.onVersion(this.held, null);
    this.options.onPending(this.own.size);
    this.settle();
    this.drain();
  }

  /** A drifted grid is replaced with the server's sheet once no own operation is in flight. */
  private repairWhenIdle(): void {
    if (!this.drifted || this.own.size > 0 || this.resyncing || this.stopped) return;
    if (this.resyncAttempts >= RESYNC_ATTEMPTS) return;
    this.resyncing = true;
    this.resyncAttempts += 1;
    void this.options.fetch().then(
      (data) => {
        this.resyncing = false;
        if (this.stopped || !data) return;
        this.sync(data);
        // Read before the last versions that arrived: read again.
        this.repairWhenIdle();
      },
      () => {
        this.resyncing = false;
      },
    );
  }

  private settle(always = false): void {
    if (!always && this.own.size > 0) return;
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
