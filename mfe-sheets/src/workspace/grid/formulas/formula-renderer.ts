import { isFormula } from '@tessera/contracts';
import { textRenderer } from 'handsontable/renderers/textRenderer';
import type { ShownValue } from './formula-messages.js';
import type { FormulaValues } from './formula-values.js';

/**
 * The grid's cell renderer while formulas are computed in the worker: a formula cell shows its
 * value (empty until the worker sends it), any other cell its own. The cell itself keeps the
 * formula's text, so the editor opens on it. Rows and columns are the stored ones: the grid
 * neither sorts nor moves them.
 */
type Renderer = (this: unknown, ...args: Parameters<typeof textRenderer>) => void;

export function formulaRenderer(values: FormulaValues): Renderer {
  return function renderFormulaCell(this: unknown, hot, td, row, col, prop, value, cellProperties) {
    textRenderer.call(this, hot, td, row, col, prop, shownValue(values, value, row, col), cellProperties);
  };
}

/** What a cell at stored (row, col) shows: a formula its computed value (empty while computed) unless the engine is off, any other cell its own (find reads it too). */
export function shownValue<T>(values: FormulaValues | null, value: T, row: number, col: number): T | ShownValue {
  return values && isFormula(value) && values.state !== 'off' ? (values.value(row, col) ?? '') : value;
}
