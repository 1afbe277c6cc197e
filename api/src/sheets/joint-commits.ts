import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** The most sheets one joint transaction takes (the rest go in the next one). */
export const JOINT_MAX_SHEETS = 64;

/** What a shared transaction's first statements may read for all its sheets at once (JointCommits `prepare`). */
export interface JointSheet {
  sheetId: string;
  /** The operation ids its part writes. */
  opIds: string[];
}

/**
 * Thrown by JointCommits `finish` when what failed is one sheet's part (its row gone): that part
 * alone is refused, the others go again together.
 */
export class JointPartError extends Error {
  constructor(
    readonly sheetId: string,
    readonly reason: unknown,
  ) {
    super(`joint commit: sheet ${sheetId} refused`);
  }
}

interface Part extends JointSheet {
  write: (trx: Transaction<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Cross-sheet group commit (SheetsService.patchCellsBatch, on PGlite): the live groups of
 * different sheets that are ready together go in ONE transaction. On PGlite (one session, which runs transactions one after the other) a
 * group of one operation paid ~3.3 ms of CPU, a third of it BEGIN/COMMIT and the transaction's
 * JS; a team's day is many sheets each edited slowly (groups of one), so 100 sheets saturated
 * the api at ~1,000 ops/s in all where one sheet takes 2,000. Shared (with their locks and known-op
 * lookups in one statement each, SheetsService.prefetchGroups): a lone op ~20 % less CPU
 * (bench/live-group-cpu LIVE_GROUP_SHEETS=8); bench/live.mjs on 100 sheets at 500 ops/s, 1.55 ms
 * per op instead of 1.82 and a p99 of 56-123 ms instead of 446-522 (a loaded machine).
 *
 * A part submitted while nothing is committing goes at the end of the event loop's turn
 * (setImmediate: the groups of the other sheets that became ready in the same turn join it);
 * one submitted while a transaction runs waits for it and goes with the others that waited.
 * Idle, a lone part goes at once (one turn: no timer, no window).
 *
 * Each sheet's part is its own: it is written in full, one sheet after the other, and a sheet
 * appears at most once per transaction (a second part of it waits for the next: its order kept).
 * When a part throws (a refusal such as the cell cap, a sheet deleted meanwhile), the whole
 * transaction is rolled back, that part alone gets its error, and the others go again together
 * in a new transaction: cheaper than a SAVEPOINT per sheet on the common path (nothing fails),
 * and no part's outcome depends on another's. When the COMMIT fails, every part gets the error
 * (nothing of any was written; the callers retry op by op). A part's promise settles only after
 * the COMMIT: what the caller tells (caches, feeds, acks) follows the commit.
 *
 * With `finish`, the parts may leave their writes to it (`prepare` is told whether they may): it
 * runs last and writes the sheets' chunks, rows and op logs in one statement instead of three per
 * sheet (SheetsService.finishGroups): a lone op of 8 sheets at once 0.87-1.03 ms of CPU instead of
 * 1.56-2.09 (bench/live-group-cpu LIVE_GROUP_SHEETS=8, a loaded machine); bench/live.mjs on 100 sheets
 * at 500 and 750 ops/s no longer saturates the api on a machine loaded 6-9 (p50 7-67 ms instead of 160-934). A refusal it can tell (JointPartError) refuses that part alone; any other failure of it
 * (which part was it?) runs the parts again each writing its own, as above, so each gets its own outcome.
 */
export class JointCommits {
  #waiting: Part[] = [];
  #running = false;
  #scheduled = false;

  constructor(
    private readonly db: Kysely<Database>,
    /**
     * Run first in a transaction of two sheets or more: reads what each part would read on its own
     * (the sheets' rows, locked; the known op ids) in one statement each, for the parts to use.
     * `deferred`: the parts may leave their writes to `finish`.
     */
    private readonly prepare?: (trx: Transaction<Database>, sheets: JointSheet[], deferred: boolean) => Promise<void>,
    /** Run last in a transaction of two sheets or more, after every part: writes what they left to it. */
    private readonly finish?: (trx: Transaction<Database>) => Promise<void>,
    private readonly maxSheets = JOINT_MAX_SHEETS,
  ) {}

  /** Runs `write` for `sheetId` inside a transaction shared with other sheets' parts; settles after the commit. */
  run<R>(sheetId: string, opIds: string[], write: (trx: Transaction<Database>) => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ sheetId, opIds, write, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#running || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      while (this.#waiting.length > 0) {
        // In arrival order, one part per sheet: a sheet's later part waits for the next transaction.
        const taken: Part[] = [];
        const sheets = new Set<string>();
        const left: Part[] = [];
        for (const part of this.#waiting) {
          if (taken.length < this.maxSheets && !sheets.has(part.sheetId)) {
            sheets.add(part.sheetId);
            taken.push(part);
          } else left.push(part);
        }
        this.#waiting = left;
        // Locked in the order of their ids: two api processes on one PostgreSQL never lock two sheets crosswise (no deadlock).
        taken.sort((a, b) => (a.sheetId < b.sheetId ? -1 : a.sheetId > b.sheetId ? 1 : 0));
        await this.#commit(taken);
      }
    } finally {
      this.#running = false;
    }
  }

  /** Commits `parts` in one transaction; a part that throws is taken out and the rest go again. */
  async #commit(parts: Part[]): Promise<void> {
    let pending = parts;
    let deferred = this.finish !== undefined;
    while (pending.length > 0) {
      const values: unknown[] = [];
      let failed: { index: number; err: unknown } | undefined;
      let finishing = false;
      try {
        await this.db.transaction().execute(async (trx) => {
          // A lone part reads and writes for itself (as without a shared transaction).
          const together = pending.length > 1;
          if (this.prepare && together) await this.prepare(trx, pending, deferred);
          for (const [index, part] of pending.entries()) {
            try {
              values.push(await part.write(trx));
            } catch (err) {
              failed = { index, err };
              throw err;
            }
          }
          if (this.finish && together && deferred) {
            finishing = true;
            await this.finish(trx);
            finishing = false;
          }
        });
      } catch (err) {
        if (finishing && err instanceof JointPartError && pending.some((p) => p.sheetId === err.sheetId)) {
          for (const part of pending) if (part.sheetId === err.sheetId) part.reject(err.reason);
          pending = pending.filter((p) => p.sheetId !== err.sheetId);
          continue;
        }
        if (finishing) {
          // Not told whose: again, each part writing its own.
          deferred = false;
          continue;
        }
        if (failed && pending.length > 1) {
          const { index, err: partErr } = failed;
          pending[index].reject(partErr);
          pending = pending.filter((_, i) => i !== index);
          continue;
        }
        // A lone part's failure, or the COMMIT's: nothing of any part was written.
        for (const part of pending) part.reject(failed && pending.length === 1 ? failed.err : err);
        return;
      }
      for (const [index, part] of pending.entries()) part.resolve(values[index]);
      return;
    }
  }
}
