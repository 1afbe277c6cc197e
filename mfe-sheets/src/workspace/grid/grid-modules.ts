import { registerCellType, TextCellType } from 'handsontable/cellTypes';
import {
  AutoColumnSize,
  Autofill,
  ContextMenu,
  CopyPaste,
  DragToScroll,
  HiddenRows,
  ManualColumnResize,
  ManualRowResize,
  registerPlugin,
  StretchColumns,
} from 'handsontable/plugins';
import 'handsontable/styles/handsontable.min.css';
import 'handsontable/styles/ht-theme-main.min.css';

let registered = false;

/**
 * Only the Handsontable modules the grid uses (the text cell, context menu, resize, copy and
 * paste, fill, stretch), instead of registerAllModules(): the rest never
 * reaches the bundle. Not UndoRedo: its steps keep the rows they were made at; both grids keep
 * their own (undo/undo-stack.ts). AutoColumnSize is registered because the context menu requires it;
 * the fixed colWidths keep it from measuring every row (2.5 s instead of 0.23 s on 100k
 * rows). AutoRowSize, which would measure every row's height, is left out. Formulas is not
 * used: HyperFormula runs in a worker (formulas/), the grid shows its values through a renderer.
 * HiddenRows draws the user's row filter (filter/grid-filter.ts); Filters is not used: it reorders
 * the visual rows under every place that maps them to the sheet's.
 */
export function registerGridModules(): void {
  if (registered) return;
  registered = true;
  registerCellType(TextCellType);
  for (const plugin of [
    AutoColumnSize,
    Autofill,
    ContextMenu,
    CopyPaste,
    DragToScroll,
    HiddenRows,
    ManualColumnResize,
    ManualRowResize,
    StretchColumns,
  ]) {
    registerPlugin(plugin);
  }
}
