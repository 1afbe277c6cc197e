import Handsontable from 'handsontable/base';

/**
 * Test support: the Handsontable grids created so far (newest last), collected through
 * Handsontable's global hooks, so a test drives the grid as the user would through its API
 * (setDataAtCell is what typing or pasting ends in) without the Workspace exposing it.
 */
const instances: Handsontable[] = [];
Handsontable.hooks.add('afterInit', function (this: Handsontable) {
  instances.push(this);
});
Handsontable.hooks.add('afterDestroy', function (this: Handsontable) {
  instances.splice(instances.indexOf(this), 1);
});

export function currentGrid(): Handsontable {
  const hot = instances.at(-1);
  if (!hot) throw new Error('no grid rendered');
  return hot;
}

/** The text a cell of the current grid shows (a formula cell: its value), or null when it is not drawn. */
export function shownText(row: number, col: number): string | null {
  return currentGrid().getCell(row, col)?.textContent ?? null;
}
