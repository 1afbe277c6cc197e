import type { GridData } from '@tessera/contracts';
import type { RebuiltChunks } from './version-rebuild.js';

/**
 * Versions rebuilt for GET /sheets/{id}/versions/{versionId}/rows, as stored text per chunk, keyed
 * by sheet and version: a committed version never changes, so the windows of a preview that
 * scrolls through a million-row version rebuild it once, not at each window (a rebuild reads
 * every chunk). The caller checks that the version still exists (not discarded or pruned) at
 * each read. Bounded by total characters, least recently used out first.
 */
export class VersionRowsCache {
  private readonly entries = new Map<string, { content: RebuiltChunks; size: number }>();
  /** Rebuilds under way: a preview reads two windows at once, and both wait for one rebuild. */
  private readonly building = new Map<string, Promise<RebuiltChunks>>();
  private size = 0;

  /** 64M characters (one-byte strings: ~64 MB): a 1,000,000 × 10 version is ~40–60M. */
  constructor(private readonly maxChars = 64 * 1024 * 1024) {}

  async get(sheetId: string, version: number, rebuild: () => Promise<RebuiltChunks>): Promise<RebuiltChunks> {
    const key = `${sheetId}/${version}`;
    const held = this.entries.get(key);
    if (held) {
      // Re-inserted: the Map's order is the recency order.
      this.entries.delete(key);
      this.entries.set(key, held);
      return held.content;
    }
    const pending = this.building.get(key);
    if (pending) return pending;
    const building = rebuild().finally(() => this.building.delete(key));
    this.building.set(key, building);
    const content = await building;
    const size = content.chunks.reduce((n, c) => n + c.length, 0);
    if (size > this.maxChars) return content;
    this.entries.set(key, { content, size });
    this.size += size;
    for (const [k, entry] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(k);
      this.size -= entry.size;
    }
    return content;
  }
}

/** Rows [start, start + count) of a version's chunks: only the chunks overlapping them are parsed. */
export function rowsOfChunks(content: Pick<RebuiltChunks, 'chunks' | 'sizes'>, start: number, count: number): GridData {
  const end = start + count;
  const out: GridData = [];
  let first = 0;
  for (let i = 0; i < content.chunks.length && first < end; i++) {
    const n = content.sizes[i];
    if (first + n > start) {
      const rows = JSON.parse(content.chunks[i]) as GridData;
      out.push(...rows.slice(Math.max(0, start - first), Math.min(n, end - first)));
    }
    first += n;
  }
  return out;
}
