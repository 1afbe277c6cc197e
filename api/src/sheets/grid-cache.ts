import type { CellValue } from '@tessera/contracts';
import type { ChunkLayout } from './cell-grid.js';

/**
 * Recently read grids, as the stored text of each chunk in row order, keyed by sheet and version. A GET
 * checks the version in the database first, so an entry is used only when it is exactly the
 * stored grid (another api instance's write raises the version and misses the cache); a cell
 * patch or row operation made here replaces just its chunks' text. Bounded by total characters, least recently
 * used out first.
 */
export class GridCache {
  private readonly entries = new Map<string, { version: number; chunks: string[]; size: number }>();
  private size = 0;

  constructor(private readonly maxChars = 256 * 1024 * 1024) {}

  get(sheetId: string, version: number): string[] | undefined {
    const entry = this.entries.get(sheetId);
    if (!entry || entry.version !== version) return undefined;
    // Re-inserted: the Map's order is the recency order.
    this.entries.delete(sheetId);
    this.entries.set(sheetId, entry);
    return entry.chunks;
  }

  set(sheetId: string, version: number, chunks: string[]): void {
    this.delete(sheetId);
    const size = chunks.reduce((n, c) => n + c.length, 0);
    if (size > this.maxChars) return;
    this.entries.set(sheetId, { version, chunks, size });
    this.size += size;
    for (const [id, entry] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(id);
      this.size -= entry.size;
    }
  }

  /** After a committed patch from `version - 1` to `version`: the new text of the chunks it wrote. */
  patch(sheetId: string, version: number, changed: Map<number, string>): void {
    const entry = this.entries.get(sheetId);
    if (!entry) return;
    if (entry.version !== version - 1) {
      this.delete(sheetId);
      return;
    }
    const chunks = [...entry.chunks];
    for (const [index, text] of changed) {
      if (index > chunks.length) {
        this.delete(sheetId);
        return;
      }
      chunks[index] = text;
    }
    this.set(sheetId, version, chunks);
  }

  /** After a committed row operation from `version - 1` to `version`: chunks [from, from + deleteCount) replaced by `texts`. */
  splice(sheetId: string, version: number, from: number, deleteCount: number, texts: string[]): void {
    const entry = this.entries.get(sheetId);
    if (!entry) return;
    if (entry.version !== version - 1 || from + deleteCount > entry.chunks.length) {
      this.delete(sheetId);
      return;
    }
    this.set(sheetId, version, [...entry.chunks.slice(0, from), ...texts, ...entry.chunks.slice(from + deleteCount)]);
  }

  delete(sheetId: string): void {
    const entry = this.entries.get(sheetId);
    if (!entry) return;
    this.entries.delete(sheetId);
    this.size -= entry.size;
  }
}

/**
 * The chunk layout of recently written sheets, keyed by sheet and version, so that a cell write
 * (whose rows must be found in chunks of any size) costs no extra read. Used only under the
 * sheet's row lock with the version read there: an entry is exactly the stored layout of that
 * version. Set after commits only. Bounded by sheets, least recently used out first.
 */
export class LayoutCache {
  private readonly entries = new Map<string, { version: number; layout: ChunkLayout }>();

  constructor(private readonly maxSheets = 5_000) {}

  get(sheetId: string, version: number): ChunkLayout | undefined {
    const entry = this.entries.get(sheetId);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(sheetId);
    this.entries.set(sheetId, entry);
    return entry.layout;
  }

  set(sheetId: string, version: number, layout: ChunkLayout): void {
    this.entries.delete(sheetId);
    this.entries.set(sheetId, { version, layout });
    if (this.entries.size > this.maxSheets) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(sheetId: string): void {
    this.entries.delete(sheetId);
  }
}

/** Chunks a sheet keeps in LoadedChunkCache at most (more: nothing is kept for it). */
export const LOADED_CHUNKS_PER_SHEET = 8;

/**
 * The chunks a live group commit of this process wrote, parsed, by sheet and the version it
 * committed: while the sheet is still at that version (checked under its row lock), they are
 * exactly what is stored, so the next group neither reads nor parses them again (on a sheet
 * edited live, every group touches the same few chunks). Any other write makes a new version,
 * so an entry never outlives the stored chunks it copies. An entry is taken by the group that
 * uses it (it changes the arrays in place) and put back only after that group committed.
 */
export class LoadedChunkCache {
  private readonly entries = new Map<string, { version: number; chunks: Map<number, CellValue[][]> }>();

  constructor(private readonly maxSheets = 200) {}

  /** The chunks of `sheetId` as stored at `version` (by chunk id), removed from the cache; undefined when not known. */
  take(sheetId: string, version: number): Map<number, CellValue[][]> | undefined {
    const entry = this.entries.get(sheetId);
    this.entries.delete(sheetId);
    return entry && entry.version === version ? entry.chunks : undefined;
  }

  set(sheetId: string, version: number, chunks: Map<number, CellValue[][]>): void {
    this.entries.delete(sheetId);
    if (chunks.size === 0 || chunks.size > LOADED_CHUNKS_PER_SHEET) return;
    this.entries.set(sheetId, { version, chunks });
    if (this.entries.size > this.maxSheets) this.entries.delete(this.entries.keys().next().value!);
  }
}
