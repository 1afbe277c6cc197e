import { isRowStructure, type CellValue, type GridData, type StructureOperationType } from '@tessera/contracts';

/** A row or column op of the user's on a windowed sheet, as sent. */
export interface StructureMove {
  type: StructureOperationType;
  index: number;
  count: number;
}

/**
 * The rows a windowed sheet held before `moves` (the user's own row and column ops, in the order
 * sent), each at its place after them: what the grid shows, read-only, while the windows are read
 * again — so the rows shown do not go blank for a round trip after an insert or remove. undefined:
 * that row was not held (the grid shows it empty until read).
 */
export function movedRows(held: ReadonlyMap<number, GridData>, size: number, moves: readonly StructureMove[]): (row: number) => CellValue[] | undefined {
  const rowMoves = moves.filter((m) => isRowStructure(m.type)).reverse();
  const colMoves = moves.filter((m) => !isRowStructure(m.type));
  return (row) => {
    // Back through the row ops, last first: where this row was before them.
    let before = row;
    for (const move of rowMoves) {
      if (before < move.index) continue;
      if (move.type === 'rows_remove') before += move.count;
      else if (before < move.index + move.count) return [];
      else before -= move.count;
    }
    const cells = held.get(Math.floor(before / size))?.[before % size];
    if (!cells) return undefined;
    let moved = cells;
    for (const move of colMoves) {
      if (moved.length <= move.index) continue;
      moved =
        move.type === 'columns_insert'
          ? [...moved.slice(0, move.index), ...new Array<CellValue>(move.count).fill(null), ...moved.slice(move.index)]
          : [...moved.slice(0, move.index), ...moved.slice(move.index + move.count)];
    }
    return moved;
  };
}
