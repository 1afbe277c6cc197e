import type { CellValue } from '../sheets/sheet.schema.js';

/** A grid a reply carried: headers, rows, and the server's hash when it sent one. */
export interface ResultGrid {
  headers: string[];
  rows: CellValue[][];
  hash?: string;
}

/** A transform of the active sheet (sort, filter, edit) keeps its headers; anything else is another shape. */
export function hasSheetHeaders(grid: ResultGrid, sheetHeaders: string[]): boolean {
  return sheetHeaders.length > 0 && grid.headers.length === sheetHeaders.length && grid.headers.every((h, i) => h === sheetHeaders[i]);
}

/** The grid's identity for "a grid whose hash was already used is not created twice": the server's hash, else one of its content. */
export function gridHash(grid: ResultGrid): string {
  if (grid.hash) return grid.hash;
  const text = JSON.stringify([grid.headers, grid.rows]);
  // FNV-1a, twice with different seeds: 64 bits are plenty to tell a panel's grids apart.
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return `local-${a.toString(16)}${b.toString(16)}`;
}
