import type { StructureOperationType } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';

/**
 * Rows or columns inserted or removed through the grid (others' ops arriving, an undo or redo of
 * the user's), at the grid's indexes: an insert at the end goes below the last row (or after the
 * last column), which Handsontable's 'above' and 'start' cannot name.
 */
export function alterGrid(hot: Handsontable, type: StructureOperationType, index: number, count: number, source: string): void {
  if (type === 'rows_insert') {
    if (index >= hot.countRows() && hot.countRows() > 0) hot.alter('insert_row_below', hot.countRows() - 1, count, source);
    else hot.alter('insert_row_above', index, count, source);
  } else if (type === 'rows_remove') {
    hot.alter('remove_row', index, count, source);
  } else if (type === 'columns_insert') {
    if (index >= hot.countCols() && hot.countCols() > 0) hot.alter('insert_col_end', hot.countCols() - 1, count, source);
    else hot.alter('insert_col_start', index, count, source);
  } else {
    hot.alter('remove_col', index, count, source);
  }
}
