import { CELL_EDIT_DEBOUNCE_MS, CELL_PATCH_MAX_CHANGES, type CellChange, type CellPatchResult } from '@tessera/contracts';
import type { SheetResult } from '../sheet.service.js';

type Failure = Extract<SheetResult<unknown>, { success: false }>;

export interface CellSyncOptions {
  /** The version the grid was loaded at. */
  version: number;
  /** Sends changed cells (PATCH .../cells). */
  patch(baseVersion: number, changes: CellChange[]): Promise<SheetResult<CellPatchResult>>;
  /** Sends the whole grid (PUT): after rows or columns were inserted or removed, and for the Save command. */
  saveAll(baseVersion: number): Promise<SheetResult<{ version: number; updated_at: string }>>;
  onSaved(version: number, at: string): void;
  onFailed(failure: Failure): void;
  /** Whether edits wait to be sent (the save status shows Unsaved meanwhile). */
  onPending(pending: boolean): void;
  debounceMs?: number;
}

/**
 * Sends the grid's edits to the server in order, one request at a time: cell edits within a
 * short pause (a paste of a range is one edit) go as one PATCH with the version they are
 * based on; a structural change or the Save command sends the whole grid instead. Each reply
 * raises the base version of the next request.
 */
export class CellSync {
  private version: number;
  private cells = new Map<string, CellChange>();
  private wholeGrid = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: CellSyncOptions) {
    this.version = options.version;
  }

  get currentVersion(): number {
    return this.version;
  }

  get hasPending(): boolean {
    return this.cells.size > 0 || this.wholeGrid;
  }

  edit(changes: readonly CellChange[]): void {
    for (const change of changes) this.cells.set(`${change.row}:${change.col}`, change);
    this.schedule();
  }

  structureChanged(): void {
    this.wholeGrid = true;
    this.schedule();
  }

  /** The Save command: the whole grid, now. */
  async saveNow(): Promise<void> {
    this.wholeGrid = true;
    await this.flush();
  }

  /** Sends what waits, after what is in flight. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running) await this.running;
    if (this.stopped || !this.hasPending) return;
    this.running = this.send().finally(() => {
      this.running = null;
    });
    await this.running;
  }

  /** Stops sending (the sheet is unloaded or reloaded); what waits is dropped. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.options.onPending(true);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), this.options.debounceMs ?? CELL_EDIT_DEBOUNCE_MS);
  }

  private async send(): Promise<void> {
    const cells = [...this.cells.values()];
    const whole = this.wholeGrid || cells.length > CELL_PATCH_MAX_CHANGES;
    this.cells.clear();
    this.wholeGrid = false;
    const result = whole ? await this.options.saveAll(this.version) : await this.options.patch(this.version, cells);
    if (this.stopped) return;
    if (result.success) {
      this.version = result.data.version;
      this.options.onSaved(result.data.version, result.data.updated_at);
      if (!this.hasPending) this.options.onPending(false);
      return;
    }
    // Kept for the next attempt (another edit or Save), unless the server refused them for good.
    if (result.status !== 409) {
      if (whole) this.wholeGrid = true;
      for (const c of cells) if (!this.cells.has(`${c.row}:${c.col}`)) this.cells.set(`${c.row}:${c.col}`, c);
    }
    this.options.onFailed(result);
  }
}
