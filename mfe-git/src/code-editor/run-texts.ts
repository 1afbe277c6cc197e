import type { Placement } from './run-on-sheet.js';

/** Texts of 'Run on sheet' (the spec gives none: ours). */
export const RUN_TEXTS = {
  run: 'Run on sheet',
  disabledHint: 'Open a sheet and a .py file to run it on the sheet',
  failed: 'Run failed',
  output: 'Output',
} as const;

/** Where the result went, told after a run. */
export function runPlacementText(placed: Placement, sending: boolean): string {
  switch (placed.kind) {
    case 'none':
      return 'Ran on the sheet (no grid in the result)';
    case 'sheet':
      if (placed.cells === 0) return 'The sheet already holds this result';
      return sending ? `Updating the sheet: ${placed.cells} cell${placed.cells === 1 ? '' : 's'}...` : `Updated the sheet: ${placed.cells} cell${placed.cells === 1 ? '' : 's'} changed`;
    case 'new-sheet':
      return `Created sheet ${placed.name}`;
    case 'not-placed':
      return `The result could not be made into a sheet: ${placed.reason}`;
  }
}
