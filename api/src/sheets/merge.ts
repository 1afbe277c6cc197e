import type { CellValue, GridData } from '@tessera/contracts';
import { type CellDelta, cellAt, sameCell } from './cell-grid.js';

/**
 * What the server changed since a client's base version: for each touched cell, its value at
 * the base (the `old` of the first op after the base that touched it). `all` when an op since
 * then replaced the grid without recording cells, so no base value is known.
 */
export interface ChangesSince {
  baseValues: Map<string, CellValue>;
  all: boolean;
}

export const cellKey = (row: number, col: number) => `${row}:${col}`;

/** Folds op-log entries (oldest first) into the base value of every cell they touched. */
export function changesSince(ops: (CellDelta[] | null)[]): ChangesSince {
  const baseValues = new Map<string, CellValue>();
  let all = false;
  for (const changes of ops) {
    if (changes === null) {
      all = true;
      continue;
    }
    for (const d of changes) {
      const key = cellKey(d.row, d.col);
      if (!baseValues.has(key)) baseValues.set(key, d.old);
    }
  }
  return { baseValues, all };
}

/** Did the server really change this cell since the base (not just change it and back)? */
function serverChanged(since: ChangesSince, row: number, col: number, current: CellValue): boolean {
  if (since.all) return true;
  const key = cellKey(row, col);
  return since.baseValues.has(key) && !sameCell(since.baseValues.get(key), current);
}

export interface Conflict {
  row: number;
  col: number;
  value: CellValue;
}

/** A client's cell edit conflicts when the server changed the same cell to something else. */
export function patchConflicts(
  since: ChangesSince,
  changes: { row: number; col: number; value: CellValue }[],
  currentAt: (row: number, col: number) => CellValue,
): Conflict[] {
  const conflicts: Conflict[] = [];
  for (const c of changes) {
    const current = currentAt(c.row, c.col);
    if (serverChanged(since, c.row, c.col, current) && !sameCell(c.value, current)) {
      conflicts.push({ row: c.row, col: c.col, value: current });
    }
  }
  return conflicts;
}

/**
 * The 3-way merge of a full-grid save based on an older version: a cell the client left at its
 * base value keeps the server's value; a cell the client changed takes the client's value,
 * unless the server changed it too (to something else): a conflict. The grid grows to cover
 * both sides (a stale save cannot delete rows the server may have filled since).
 */
export function mergeGrid(current: GridData, client: GridData, since: ChangesSince): { grid: GridData; conflicts: Conflict[] } {
  const rows = Math.max(current.length, client.length);
  const conflicts: Conflict[] = [];
  const grid: GridData = [];
  for (let r = 0; r < rows; r++) {
    const width = Math.max(current[r]?.length ?? 0, client[r]?.length ?? 0);
    const row: CellValue[] = new Array(width);
    for (let c = 0; c < width; c++) {
      const cur = cellAt(current, r, c);
      const mine = cellAt(client, r, c);
      const key = cellKey(r, c);
      const base = since.all ? undefined : since.baseValues.has(key) ? (since.baseValues.get(key) ?? null) : cur;
      const clientChanged = base === undefined ? !sameCell(mine, cur) : !sameCell(mine, base);
      if (!clientChanged) {
        row[c] = cur;
      } else if (serverChanged(since, r, c, cur) && !sameCell(mine, cur)) {
        conflicts.push({ row: r, col: c, value: cur });
        row[c] = cur;
      } else {
        row[c] = mine;
      }
    }
    grid.push(row);
  }
  return { grid, conflicts };
}

/** Every cell that differs between two grids, as op-log deltas. */
export function diffGrids(before: GridData, after: GridData): CellDelta[] {
  const deltas: CellDelta[] = [];
  const rows = Math.max(before.length, after.length);
  for (let r = 0; r < rows; r++) {
    const width = Math.max(before[r]?.length ?? 0, after[r]?.length ?? 0);
    for (let c = 0; c < width; c++) {
      const old = cellAt(before, r, c);
      const next = cellAt(after, r, c);
      if (!sameCell(old, next)) deltas.push({ row: r, col: c, old, new: next });
    }
  }
  return deltas;
}
