import { cellMatches, type ColumnFilterBody, FIND_COUNT_CAP, FIND_TEXTS, findNeedle, type FindMatch, type FindQuery, type FindResult, type GridData } from '@tessera/contracts';
import { gridLink } from '../grid/grid-link.js';
import type { WindowedSheet } from '../windowed/windowed-sheet.js';
import { FindMarks } from './find-marks.js';
import { findInGrid, wholeCellMatches, type WholeMatches } from './whole-grid-find.js';

/** Matches one request to the api asks for (windowed sheets): walked in the browser before asking again. */
export const FIND_PAGE = 100;
/** Typing settles this long before a search starts: a search per key would be thrown away. */
export const FIND_TYPING_MS = 150;
/** Pages of matches that no longer match the rows held (or that the grid's filter hides now), passed over before the bar says 'No matches'. */
const FIND_REFETCHES_MAX = 3;

/**
 * What find searches: a grid loaded whole (its rows are in the browser: searched here), a windowed
 * sheet or a windowed sheet's version in preview (the api searches the stored rows: GET
 * /sheets/:id/find, GET /sheets/:id/versions/:v/find; `sheet` the rows the grid holds, `link` its
 * grid's), or nothing (no sheet shown). A windowed sheet's `filters`: the user's row filter now
 * (none for a preview), sent with each search (POST /sheets/:id/find) so the api answers and counts
 * the matches of the rows it shows only.
 */
export type FindTarget =
  | { kind: 'whole'; data: GridData }
  | {
      kind: 'windowed';
      sheet: WindowedSheet;
      link: GridData | null;
      filters?: () => ColumnFilterBody[];
      search(query: FindQuery, filters: ColumnFilterBody[]): Promise<{ success: true; data: FindResult } | { success: false }>;
    }
  | { kind: 'unavailable' };

export type FindStatus =
  | { kind: 'empty' }
  | { kind: 'searching' }
  | { kind: 'none' }
  | { kind: 'at'; n: number; total: number; complete: boolean }
  | { kind: 'failed'; text: string };

/** The bar's line for a status: 'N of M', 'No matches', 'Searching…'. */
export function statusText(status: FindStatus): string {
  switch (status.kind) {
    case 'empty':
      return '';
    case 'searching':
      return FIND_TEXTS.searching;
    case 'none':
      return FIND_TEXTS.noMatches;
    case 'at':
      return status.complete ? FIND_TEXTS.count(status.n, status.total) : FIND_TEXTS.countMore(status.n, FIND_COUNT_CAP);
    case 'failed':
      return status.text;
  }
}

/**
 * The find bar's work, without React: the query typed, the search, and going from match to match
 * (the cell selected and scrolled into view). A whole grid is searched in the browser, every match
 * kept; before going to one its cell is checked again, and a cell that no longer matches (an edit
 * since) makes the grid be searched again. A windowed sheet is searched by the api at its stored
 * version, a page of matches at a time; a match whose row the session holds is checked against it
 * (own edits not yet saved, others' since the read) and passed over when it no longer matches; with
 * the user's row filter on, the api skips the rows it hides (the count is of the rows shown), and a
 * match in a row the grid hides since (an edit judged here) is passed over the same way. The filter
 * changed since the page was asked: the next step asks again, from the match gone to.
 * Matches the edits since made are found by the next search (typing again, or reopening the bar).
 */
export class FindController {
  query = '';
  status: FindStatus = { kind: 'empty' };
  /** What the grids mark: set when a search settles or the match gone to changes, cleared when the bar closes. */
  readonly marks = new FindMarks();
  private generation = 0;
  private typing: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();
  // Whole grid: every match of `searched` rows, and the one gone to.
  private whole: { data: GridData; matches: WholeMatches; index: number } | null = null;
  // Windowed: the page of matches walked (in the order gone through), the one gone to, the answer's count.
  /** Pages asked for in a row because every match of the last no longer matched the rows held. */
  private refetched = 0;
  /** `filters`: the row filter it was asked with (JSON), told apart from the one on now. */
  private page: { matches: FindMatch[]; index: number; total: number; complete: boolean; filters: string } | null = null;

  constructor(private readonly target: () => FindTarget) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(status: FindStatus) {
    this.status = status;
    for (const listener of this.listeners) listener();
  }

  /** The text typed: searched once typing settles (an empty one clears the count). */
  setQuery(query: string): void {
    this.query = query;
    clearTimeout(this.typing);
    this.generation++;
    this.whole = null;
    this.page = null;
    this.refetched = 0;
    // The marks of the last text stay while the next is typed (each change redraws the grid): replaced once its search settles.
    if (query === '') {
      this.marks.clear();
      return this.set({ kind: 'empty' });
    }
    if (this.target().kind === 'unavailable') {
      this.marks.clear();
      return this.set({ kind: 'none' });
    }
    this.set({ kind: 'searching' });
    this.typing = setTimeout(() => {
      this.typing = undefined;
      void this.search(1);
    }, FIND_TYPING_MS);
  }

  /** The bar closed (or the grid gone): whatever is under way is dropped. */
  stop(): void {
    clearTimeout(this.typing);
    this.typing = undefined;
    this.generation++;
    this.marks.clear();
  }

  /** Enter / the next button (step 1), Shift+Enter / the previous one (step -1). */
  go(step: 1 | -1): void {
    if (this.query === '') return;
    // Enter before typing settled: the search starts now (it goes to the first match, or the last for Shift+Enter).
    if (this.typing !== undefined) {
      clearTimeout(this.typing);
      this.typing = undefined;
      void this.search(step);
      return;
    }
    if (this.status.kind === 'searching') return;
    const target = this.target();
    if (target.kind === 'whole') this.goWhole(target.data, step);
    else if (target.kind === 'windowed') void this.goWindowed(target, step);
  }

  /** A new search from the sheet's start; step -1 goes to the last match. */
  private async search(step: 1 | -1): Promise<void> {
    const target = this.target();
    if (target.kind === 'whole') await this.searchWhole(target.data, step, null);
    else if (target.kind === 'windowed') await this.fetchPage(target, null, step);
  }

  // The whole grid.

  private async searchWhole(data: GridData, step: 1 | -1, from: [number, number] | null): Promise<void> {
    const generation = ++this.generation;
    this.set({ kind: 'searching' });
    const matches = await findInGrid(data, () => gridLink(data).formulas, this.query, () => generation !== this.generation);
    if (!matches) return;
    if (matches.rows.length === 0) {
      this.whole = null;
      this.marks.set(findNeedle(this.query), null);
      return this.set({ kind: 'none' });
    }
    // From a cell (the one gone to, searched again): the first match past it that way; else the first (or last).
    let index = step === 1 ? 0 : matches.rows.length - 1;
    if (from) {
      const past = (i: number) => (step === 1 ? matches.rows[i] > from[0] || (matches.rows[i] === from[0] && matches.cols[i] > from[1]) : matches.rows[i] < from[0] || (matches.rows[i] === from[0] && matches.cols[i] < from[1]));
      const found = step === 1 ? matches.rows.findIndex((_, i) => past(i)) : findLastIndex(matches.rows.length, past);
      if (found >= 0) index = found;
    }
    this.whole = { data, matches, index };
    this.showWhole();
  }

  private goWhole(data: GridData, step: 1 | -1): void {
    const whole = this.whole;
    if (!whole || whole.data !== data) return void this.searchWhole(data, step, null);
    const count = whole.matches.rows.length;
    const index = (whole.index + step + count) % count;
    const row = whole.matches.rows[index];
    const col = whole.matches.cols[index];
    // Edited since the search: the grid is searched again, and the next match is the first past the one gone to.
    if (!wholeCellMatches(data, gridLink(data).formulas, row, col, findNeedle(this.query))) {
      return void this.searchWhole(data, step, [whole.matches.rows[whole.index], whole.matches.cols[whole.index]]);
    }
    whole.index = index;
    this.showWhole();
  }

  private showWhole(): void {
    const whole = this.whole;
    if (!whole) return;
    const row = whole.matches.rows[whole.index];
    const col = whole.matches.cols[whole.index];
    const hot = gridLink(whole.data).hot;
    // Selected and scrolled to, the grid not made to listen: keys typed stay the find box's.
    if (hot && !hot.isDestroyed) hot.selectCell(row, col, row, col, true, false);
    this.marks.set(findNeedle(this.query), [row, col]);
    this.set({ kind: 'at', n: whole.index + 1, total: whole.matches.rows.length, complete: true });
  }

  // The windowed grid.

  /** A page of matches from the api: from the sheet's start (`from` null) or past the match `from`, that way. */
  private async fetchPage(target: Extract<FindTarget, { kind: 'windowed' }>, from: FindMatch | null, step: 1 | -1): Promise<void> {
    const generation = ++this.generation;
    if (!from) this.set({ kind: 'searching' });
    const filters = target.filters?.() ?? [];
    const query: FindQuery = { q: this.query, direction: step === 1 ? 'next' : 'prev', limit: FIND_PAGE, ...(from ? { after_row: from[0], after_col: from[1] } : {}) };
    const answer = await target.search(query, filters);
    // A filter just set: its rows are asked of the api meanwhile; the match is gone to once the grid shows them.
    if (target.link) await gridLink(target.link).filterSettled?.();
    if (generation !== this.generation) return;
    if (!answer.success) {
      this.marks.clear();
      return this.set({ kind: 'failed', text: FIND_TEXTS.failed });
    }
    const { matches, total, complete } = answer.data;
    if (matches.length === 0) {
      this.page = null;
      // The rows held may match (edits the api has not seen yet): they are marked as drawn, by the same rule.
      this.marks.set(findNeedle(this.query), null);
      return this.set({ kind: 'none' });
    }
    // Kept in the order gone through, the match it started from among them: the other way walks back to it.
    const ahead = step === 1 ? matches : [...matches].reverse();
    const walked = !from ? ahead : step === 1 ? [from, ...ahead] : [...ahead, from];
    const index = step === 1 ? (from ? 1 : 0) : walked.length - (from ? 2 : 1);
    this.page = { matches: walked, index, total, complete, filters: JSON.stringify(filters) };
    this.showWindowed(target, step);
  }

  private goWindowed(target: Extract<FindTarget, { kind: 'windowed' }>, step: 1 | -1): void {
    const page = this.page;
    if (!page) return void this.fetchPage(target, null, step);
    // The filter changed since (its dialog, Clear filter): on from the match gone to, counted in the rows it shows now.
    if (page.filters !== JSON.stringify(target.filters?.() ?? [])) return void this.fetchPage(target, page.matches[page.index], step);
    const index = page.index + step;
    if (index < 0 || index >= page.matches.length) return void this.fetchPage(target, page.matches[page.index], step);
    page.index = index;
    this.refetched = 0;
    this.showWindowed(target, step);
  }

  /** The page's match shown, unless its row (held by the session) no longer matches: then the next one that way. */
  private showWindowed(target: Extract<FindTarget, { kind: 'windowed' }>, step: 1 | -1): void {
    const page = this.page;
    if (!page) return;
    const needle = findNeedle(this.query);
    for (;;) {
      const [row, col, n] = page.matches[page.index];
      const held = target.sheet.rowAt(row);
      // A row the grid's filter hides (an edit since the api's answer, judged here) no longer shows a match either.
      const hidden = target.link ? gridLink(target.link).rowShown?.(row) === false : false;
      if (!hidden && (!held || cellMatches(held[col], needle))) {
        if (target.link) gridLink(target.link).jumpTo?.(row, col, true);
        this.marks.set(needle, [row, col]);
        return this.set({ kind: 'at', n, total: page.total, complete: page.complete });
      }
      // Every match of the page passed over: the api is asked past the last one, a few times (its
      // answers are at its version, the held rows may have moved on), then 'No matches'.
      const index = page.index + step;
      if (index < 0 || index >= page.matches.length) {
        if (++this.refetched > FIND_REFETCHES_MAX) return this.set({ kind: 'none' });
        return void this.fetchPage(target, page.matches[page.index], step);
      }
      page.index = index;
    }
  }
}

function findLastIndex(length: number, test: (i: number) => boolean): number {
  for (let i = length - 1; i >= 0; i--) if (test(i)) return i;
  return -1;
}
