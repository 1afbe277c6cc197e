import type { CellChange, ChartDefinition, NavigationEventType } from '@tessera/contracts';
import type { StoredMoveOp } from './sheet-ops.tables.js';

/** A committed change of a sheet, told after the transaction, in the order of this process's commits. */
export type SheetChange =
  | { sheetId: string; version: number; kind: 'cells'; changes: CellChange[]; userId: string; updatedAt: string; origin?: string }
  /** Rows or columns inserted or removed, or rows sorted. */
  | { sheetId: string; version: number; kind: 'structure'; operation: StoredMoveOp; userId: string; updatedAt: string; origin?: string }
  /** A chart added or changed (`chart`), or deleted (null): the sockets get it as a `chart` frame, no one re-reads the sheet. */
  | { sheetId: string; version: number; kind: 'chart'; chartId: string; chart: ChartDefinition | null; userId: string; updatedAt: string }
  /** PUT: a new grid, a rename or other metadata: listeners re-read the sheet. */
  | { sheetId: string; version: number; kind: 'sheet'; userId: string; origin?: string }
  | { sheetId: string; kind: 'deleted' }
  /** A proposed version was made (nothing in the sheet changed yet). */
  | { sheetId: string; kind: 'proposal'; versionId: string; author: string | null }
  /** A proposal became the live `version`; told just before that version's own 'sheet' change. */
  | { sheetId: string; kind: 'accepted'; versionId: string; version: number };

/**
 * A navigation change (a sheet or group created, renamed, moved, favourited or deleted), for the
 * workspace socket: every navigator stays current without a reload.
 */
export interface NavigationChange {
  type: NavigationEventType;
  /** The sheet's or group's id. */
  id: string;
  /** Who made the change. */
  userId: string;
  name?: string;
  parentId?: string | null;
  /** group_deleted: the sheets deleted with it (their open sheet sockets close too). */
  sheetIds?: string[];
}

/**
 * Tells listeners about committed changes, in order. Listeners must not throw; one that does is
 * isolated (a listener's failure must not fail the request that already committed).
 */
export class ChangeFeed<T> {
  readonly #listeners = new Set<(change: T) => void>();

  /** Returns the unsubscribe function. */
  subscribe(listener: (change: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(change: T): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // isolated: see above
      }
    }
  }
}

export type SheetChangeListener = (change: SheetChange) => void;

/** Changes made through SheetsService (REST, import, the live socket, versions), for the live socket. */
export class SheetChangeFeed extends ChangeFeed<SheetChange> {}

/** Sheets and groups created, updated and deleted, for the workspace socket. */
export class NavigationFeed extends ChangeFeed<NavigationChange> {}
