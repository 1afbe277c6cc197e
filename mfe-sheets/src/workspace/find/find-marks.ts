import { cellMatches, type CellValue } from '@tessera/contracts';

/** The class of a drawn cell that matches the find bar's text, and of the match gone to (styles in FIND_MARK_STYLE). */
export const FIND_MATCH_CLASS = 'tessera-find-match';
export const FIND_CURRENT_CLASS = 'tessera-find-current';
// !important and a doubled class: above a read-only cell's `.htDimmed` background (itself !important) and a
// version preview's changed-cell highlight (HIGHLIGHT_STYLE), drawn after it.
export const FIND_MARK_STYLE = [
  `.handsontable td.${FIND_MATCH_CLASS}.${FIND_MATCH_CLASS} { background-color: #bbf7d0 !important; }`,
  `.handsontable td.${FIND_MATCH_CLASS}.${FIND_CURRENT_CLASS} { background-color: #4ade80 !important; }`,
].join('\n');

/**
 * What the grids mark while the find bar is open (like Google Sheets and Excel online): every
 * drawn cell whose shown text matches the searched text (contracts cellMatches, the rule find
 * goes by), the match gone to more strongly. Decided as each cell is drawn (the grids' afterRenderer),
 * so only drawn cells are checked, and an edit redraws its cell (a cell edited to stop matching
 * loses its mark). Changed once a search settles and when the bar closes, not at each key typed:
 * each change redraws the grid once. A visual aid only: the bar's 'N of M' is what is announced.
 */
export class FindMarks {
  /** The searched text as compared (findNeedle's), '' when nothing is marked. */
  needle = '';
  /** The match gone to: its row (absolute, a windowed sheet's too) and column. */
  current: readonly [number, number] | null = null;
  private readonly listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  set(needle: string, current: readonly [number, number] | null): void {
    if (needle === this.needle && current?.[0] === this.current?.[0] && current?.[1] === this.current?.[1]) return;
    this.needle = needle;
    this.current = current;
    for (const listener of this.listeners) listener();
  }

  clear(): void {
    this.set('', null);
  }

  /** Marks a drawn cell at (row, col) showing `shown`: its classes are reset at each draw (Handsontable clears a cell's class first). */
  draw(td: HTMLTableCellElement, row: number, col: number, shown: unknown): void {
    if (this.needle === '' || !cellMatches(shown as CellValue | undefined, this.needle)) return;
    td.classList.add(FIND_MATCH_CLASS);
    if (this.current && this.current[0] === row && this.current[1] === col) td.classList.add(FIND_CURRENT_CLASS);
  }
}
