import type { CellChange } from '@tessera/contracts';

/** A committed change of a sheet, told after the transaction, in the order of this process's commits. */
export type SheetChange =
  | { sheetId: string; version: number; kind: 'cells'; changes: CellChange[]; userId: string; updatedAt: string; origin?: string }
  /** PUT: a new grid, a rename or other metadata: listeners re-read the sheet. */
  | { sheetId: string; version: number; kind: 'sheet'; userId: string; origin?: string }
  | { sheetId: string; kind: 'deleted' };

export type SheetChangeListener = (change: SheetChange) => void;

/**
 * Tells listeners (the live socket) about changes made through SheetsService, so that edits
 * from REST reach open sheets. Listeners must not throw; one that does is isolated.
 */
export class SheetChangeFeed {
  readonly #listeners = new Set<SheetChangeListener>();

  /** Returns the unsubscribe function. */
  subscribe(listener: SheetChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(change: SheetChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure must not fail the request that already committed.
      }
    }
  }
}
