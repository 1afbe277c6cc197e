import { type Kysely, sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/schema.js';
import type { SheetChangeFeed } from './sheet-changes.js';
import { catchUpChunks, chunksBehind } from './sheet-store.js';

/** Stored bytes of chunk text rewritten per statement: on PGlite (one connection) a statement holds every other query back while it runs. */
export const CATCH_UP_BATCH_BYTES = 400_000;
/** Wait after a column op before rewriting, so that several column ops in a row are written once. */
export const CATCH_UP_DELAY_MS = 250;

interface Log {
  warn(obj: object, msg: string): void;
}

/**
 * Rewrites the chunks of sheets whose columns were inserted or removed (sheet-store.ts
 * pendingColumnOps), in the background after the op was acknowledged: a few chunks per statement,
 * letting other queries in between, so that reads stop applying the ops and the sheet's byte size
 * (counted from the stored text, migration 0011) is exact again. Correct at any point and from any
 * process: a chunk rewritten here keeps its content, and one written meanwhile is left alone. The
 * column ops committed by this process are caught up; at start, every sheet that has chunks behind
 * (one left by a process that stopped first).
 */
export class ColumnCompactor {
  readonly #queue = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #sweep = false;
  /** The sheet being caught up now. */
  #current: string | undefined;
  #closed = false;
  readonly #unsubscribe: () => void;

  constructor(
    private readonly db: Kysely<Database>,
    changes: SheetChangeFeed,
    private readonly log: Log,
    private readonly delayMs = CATCH_UP_DELAY_MS,
  ) {
    this.#unsubscribe = changes.subscribe((c) => {
      if (c.kind === 'structure' && (c.operation.type === 'columns_insert' || c.operation.type === 'columns_remove')) this.schedule(c.sheetId);
    });
  }

  /** Sheets waiting to be caught up or being caught up in this process. */
  get pending(): number {
    return this.#queue.size + (this.#current === undefined ? 0 : 1);
  }

  /** The `sheet_column_catch_up_pending` gauge on /metrics (the structure-edits benchmark waits on it). */
  instrument(metrics: Registry): void {
    const compactor = this;
    new Gauge({
      name: 'sheet_column_catch_up_pending',
      help: 'Sheets whose chunks wait for or are being rewritten with inserted or removed columns, in this process',
      registers: [metrics],
      collect() {
        this.set(compactor.pending);
      },
    });
  }

  /** Looks for sheets with chunks behind (after the delay). */
  start(): void {
    this.#sweep = true;
    this.#arm();
  }

  schedule(sheetId: string): void {
    if (this.#closed) return;
    this.#queue.add(sheetId);
    this.#arm();
  }

  /** Runs what is scheduled now and resolves when nothing is left (tests; close). */
  async settle(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#begin();
    }
    while (this.#running) await this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#running) await this.#running;
  }

  #arm(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#begin();
    }, this.delayMs);
    this.#timer.unref();
  }

  #begin(): void {
    if (this.#running || this.#closed) return;
    this.#running = this.#loop().finally(() => {
      this.#running = undefined;
      // Scheduled while the last sheet was being finished.
      if (this.#queue.size > 0 && !this.#timer) this.#begin();
    });
  }

  async #loop(): Promise<void> {
    if (this.#sweep) {
      this.#sweep = false;
      try {
        const { rows } = await sql<{ sheet_id: string }>`SELECT DISTINCT o.sheet_id FROM sheet_ops o
          WHERE o.kind IN ('columns_insert', 'columns_remove')
            AND EXISTS (SELECT 1 FROM sheet_chunks c WHERE c.sheet_id = o.sheet_id AND c.version < o.version)`.execute(this.db);
        for (const r of rows) this.#queue.add(r.sheet_id);
      } catch (err) {
        this.log.warn({ err }, 'could not look for sheets with column operations to write');
      }
    }
    while (this.#queue.size > 0 && !this.#closed) {
      const sheetId = this.#queue.values().next().value!;
      this.#queue.delete(sheetId);
      this.#current = sheetId;
      try {
        await this.#catchUp(sheetId);
      } catch (err) {
        // Reads stay right without it; the next column op or start tries again.
        this.log.warn({ err, sheetId }, 'could not write column operations into the chunks');
      } finally {
        this.#current = undefined;
      }
    }
  }

  async #catchUp(sheetId: string): Promise<void> {
    const behind = await chunksBehind(this.db, sheetId);
    let batch: number[] = [];
    let bytes = 0;
    for (let i = 0; i <= behind.length; i++) {
      if (i === behind.length || (batch.length > 0 && bytes + behind[i].bytes > CATCH_UP_BATCH_BYTES)) {
        if (this.#closed) return;
        await catchUpChunks(this.db, sheetId, batch);
        // Queries that came meanwhile go first.
        await new Promise((resolve) => setImmediate(resolve));
        batch = [];
        bytes = 0;
      }
      if (i < behind.length) {
        batch.push(behind[i].chunk);
        bytes += behind[i].bytes;
      }
    }
  }
}
