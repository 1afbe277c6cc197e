import { HYBRID_MAX_CELLS } from '../ai/hybrid.schema.js';
import { heldCells, heldLength } from './formula-cells.js';
import { opensWindowed, WINDOWED_SHEET_MIN_ROWS } from './sheet-rows.schema.js';
import type { SheetSummary } from './sheet.schema.js';

const sheet = (rows: number, columns: number, more: Pick<SheetSummary, 'may_have_formulas' | 'held_cells'> = {}) => ({
  metadata: { headers: [], description: '', tags: [], rows, columns, groupId: null, position: 0, category: 'General' as const },
  ...more,
});

test('a large sheet without formulas opens windowed; with formulas the engine computes, or may, it loads whole', () => {
  expect(opensWindowed(sheet(WINDOWED_SHEET_MIN_ROWS, 10, { may_have_formulas: false }))).toBe(true);
  expect(opensWindowed(sheet(WINDOWED_SHEET_MIN_ROWS - 1, 10, { may_have_formulas: false }))).toBe(false);
  // Formulas, the held count unknown (an older server, or a column op not applied to every chunk yet): whole.
  expect(opensWindowed(sheet(1_000_000, 10, { may_have_formulas: true }))).toBe(false);
  expect(opensWindowed(sheet(1_000_000, 10, {}))).toBe(false);
  // Exactly at the engine's bound it still computes them.
  expect(opensWindowed(sheet(1_000_000, 10, { may_have_formulas: true, held_cells: HYBRID_MAX_CELLS }))).toBe(false);
});

test('a large sheet with formulas past the engine\'s bound (held cells) opens windowed; rows × columns past it is not enough', () => {
  expect(opensWindowed(sheet(1_000_000, 10, { may_have_formulas: true, held_cells: 10_000_000 }))).toBe(true);
  expect(opensWindowed(sheet(300_000, 10, { may_have_formulas: true, held_cells: HYBRID_MAX_CELLS + 1 }))).toBe(true);
  // 3,000,000 cells by rows × columns, but only half of them held (the last columns mostly empty): the engine takes it.
  expect(opensWindowed(sheet(300_000, 10, { may_have_formulas: true, held_cells: 1_500_000 }))).toBe(false);
  // Past the bound but small: loaded whole (the grid says the formulas show as text itself).
  expect(opensWindowed(sheet(WINDOWED_SHEET_MIN_ROWS - 1, 30, { may_have_formulas: true, held_cells: 2_999_970 }))).toBe(false);
});

test('held cells: each row up to its last non-empty cell; an empty string is held', () => {
  expect(heldLength([1, null, 'a', null, null])).toBe(3);
  expect(heldLength([null, undefined])).toBe(0);
  expect(heldLength(['', null])).toBe(1);
  expect(heldCells([[1, null], [null], [], [null, 2, null, null], ['', null], ['=A1', 'x']])).toBe(6);
});
