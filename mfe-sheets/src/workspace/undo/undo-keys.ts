import type Handsontable from 'handsontable/base';

/**
 * Handsontable's undo and redo shortcuts (those of its UndoRedo, which is off on both grids) doing
 * the grid's own undo and redo: Ctrl/Cmd+Z, Ctrl/Cmd+Y and Ctrl/Cmd+Shift+Z. Returns their removal.
 */
export function addUndoKeys(hot: Handsontable, undo: () => void, redo: () => void): () => void {
  const grid = hot.getShortcutManager().getContext('grid');
  if (!grid) return () => {};
  const group = 'tesseraUndo';
  // Right Alt is Ctrl+Alt on some systems (as Handsontable's own shortcuts say).
  grid.addShortcuts(
    [
      { keys: [['Control/Meta', 'z']], callback: undo },
      { keys: [['Control/Meta', 'y'], ['Control/Meta', 'Shift', 'z']], callback: redo },
    ],
    { group, runOnlyIf: (event?: KeyboardEvent) => !event?.altKey },
  );
  return () => grid.removeShortcutsByGroup(group);
}
