import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';
import type { GridData } from '@tessera/contracts';
import { CHUNK_ROWS } from '../sheets/cell-grid.js';
import { type ColumnSpan, rowsOfText } from '../sheets/window-text.js';
import type { RebuiltChunks } from './version-rebuild.js';

const deflate = promisify(deflateRaw);

/** A kept version: each chunk's stored text, or (a version too large to keep as text) that text deflated. */
export interface KeptChunks extends Omit<RebuiltChunks, 'chunks'> {
  chunks: (string | Uint8Array)[];
}

const sizeOf = (chunks: KeptChunks['chunks']) => chunks.reduce((n, c) => n + c.length, 0);

/**
 * Versions rebuilt for GET /sheets/{id}/versions/{versionId}/rows, as stored text per chunk, keyed
 * by sheet and version (or proposal): a committed version never changes, so the windows of a preview that
 * scrolls through a million-row version rebuild it once, not at each window (a rebuild reads
 * every chunk). The caller checks that the version still exists (not discarded or pruned) at
 * each read. Bounded by what it holds: characters of text plus bytes of deflated chunks, at most
 * `maxSize` in all, least recently used out first.
 * A version whose text alone passes the bound (a 1,000,000 × 10 sheet of short strings is ~74M
 * characters) is kept deflated chunk by chunk (typically 5–10 times smaller), and a window read
 * inflates only the chunks it overlaps (500 rows each, ~0.1 ms): without that each window of its
 * preview rebuilt the whole version (0.5–0.8 s of api CPU). Only a version that does not fit even
 * deflated is rebuilt at each read.
 */
export class VersionRowsCache {
  private readonly entries = new Map<string, { content: KeptChunks; size: number }>();
  /** Rebuilds under way: a preview reads two windows at once, and both wait for one rebuild. */
  private readonly building = new Map<string, Promise<KeptChunks>>();
  /** Rebuilds being kept (deflated past the bound), by key: a key is here while it is in `building`. */
  private readonly keeping = new Map<string, Promise<void>>();
  private size = 0;

  /** 64M (one-byte strings: ~64 MB; deflated chunks: bytes). */
  constructor(private readonly maxSize = 64 * 1024 * 1024) {}

  /** What the kept versions hold now: characters plus bytes (never more than the bound). */
  get heldSize(): number {
    return this.size;
  }

  /** `version`: a committed version's number, or a proposal's id (its rows never change while it is proposed). */
  async get(sheetId: string, version: number | string, rebuild: () => Promise<RebuiltChunks>): Promise<KeptChunks> {
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
    const building = rebuild();
    this.building.set(key, building);
    // Kept after the answer (deflating a version of ~74M characters takes about a second of the
    // thread pool's time); reads meanwhile share the rebuilt text. A failed rebuild is not kept.
    const keeping = building.then(
      (content) => this.keep(key, content).catch(() => undefined).finally(() => this.building.delete(key)),
      () => void this.building.delete(key),
    );
    this.keeping.set(key, keeping);
    void keeping.finally(() => {
      if (this.keeping.get(key) === keeping) this.keeping.delete(key);
    });
    return building;
  }

  /** The version if kept (now the most recent), without rebuilding it. */
  held(sheetId: string, version: number | string): KeptChunks | undefined {
    const key = `${sheetId}/${version}`;
    const held = this.entries.get(key);
    if (!held) return undefined;
    this.entries.delete(key);
    this.entries.set(key, held);
    return held.content;
  }

  /** The whole rebuild of the version under way, if any (a window may wait for it). */
  pending(sheetId: string, version: number | string): Promise<KeptChunks> | undefined {
    return this.building.get(`${sheetId}/${version}`);
  }

  /**
   * The version rebuilt whole and kept, behind a window answered from a rebuild of its span (the
   * preview's first window does not wait for the whole rebuild, 0.4–0.9 s for 1,000,000 rows): unless
   * kept or under way already (windows asked at once share one rebuild). Resolves when kept or given
   * up (a failed rebuild is not kept); never rejects.
   */
  async fill(sheetId: string, version: number | string, rebuild: () => Promise<RebuiltChunks>): Promise<void> {
    const key = `${sheetId}/${version}`;
    if (this.entries.has(key) || this.building.has(key)) return;
    void this.get(sheetId, version, rebuild).catch(() => undefined);
    await this.keeping.get(key);
  }

  /** Resolves when the versions rebuilt so far are kept (or given up): for tests and benches. */
  async settled(): Promise<void> {
    await Promise.all(this.keeping.values());
  }

  private async keep(key: string, rebuilt: RebuiltChunks): Promise<void> {
    let content: KeptChunks = rebuilt;
    let size = sizeOf(rebuilt.chunks);
    if (size > this.maxSize) {
      // Deflated off the event loop (zlib's thread pool), a chunk at a time, given up as soon as it cannot fit.
      const deflated: Uint8Array[] = [];
      let bytes = 0;
      for (const text of rebuilt.chunks) {
        const chunk = await deflate(text, { level: 1 });
        bytes += chunk.length;
        if (bytes > this.maxSize) return;
        deflated.push(chunk);
      }
      content = { ...rebuilt, chunks: deflated };
      size = bytes;
    }
    this.entries.set(key, { content, size });
    this.size += size;
    for (const [k, entry] of this.entries) {
      if (this.size <= this.maxSize) break;
      this.entries.delete(k);
      this.size -= entry.size;
    }
  }
}

/**
 * Rows held whole as JSON text (a proposal's `rows`) cut into chunks of CHUNK_ROWS rows, as a
 * rebuilt version is kept, without parsing them: one pass over the text, outside strings, cutting
 * between rows and counting each row's cells (the width: the widest row's, or the headers').
 * Parsing a 1,000,000 × 10 proposal to cut it took ~1.5 s and ~1 GB more. Cells are scalars (CellValue).
 */
export function chunkedRowsText(headers: string[], text: string): RebuiltChunks {
  const chunks: string[] = [];
  const sizes: number[] = [];
  let depth = 0;
  let chunkStart = -1;
  let inChunk = 0;
  let rowCount = 0;
  let width = headers.length;
  let commas = 0;
  let value = false;
  let rowEnd = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      value = true;
      // To the string's closing quote (indexOf, not a character loop: most of the text is in strings);
      // a quote after an odd run of backslashes is escaped.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let b = end - 1;
        while (text.charCodeAt(b) === 92) b--;
        if ((end - 1 - b) % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      i = end === -1 ? text.length : end;
    } else if (c === 91) {
      depth++;
      if (depth === 2) {
        if (inChunk === 0) chunkStart = i;
        commas = 0;
        value = false;
      }
    } else if (c === 93) {
      if (depth === 2) {
        width = Math.max(width, value ? commas + 1 : 0);
        rowCount++;
        rowEnd = i + 1;
        if (++inChunk === CHUNK_ROWS) {
          chunks.push(`[${text.slice(chunkStart, i + 1)}]`);
          sizes.push(inChunk);
          inChunk = 0;
        }
      }
      depth--;
    } else if (depth === 2) {
      if (c === 44) commas++;
      else if (c !== 32 && c !== 10 && c !== 13 && c !== 9) value = true;
    }
  }
  if (inChunk > 0) {
    chunks.push(`[${text.slice(chunkStart, rowEnd)}]`);
    sizes.push(inChunk);
  }
  return { headers, rowCount, colCount: width, chunks, sizes };
}

/** Rows [start, start + count) of a version's chunks: only the chunks overlapping them are parsed (inflated first when deflated). */
export function rowsOfChunks(content: Pick<KeptChunks, 'chunks' | 'sizes'>, start: number, count: number, columns?: ColumnSpan): GridData {
  const end = start + count;
  const out: GridData = [];
  let first = 0;
  for (let i = 0; i < content.chunks.length && first < end; i++) {
    const n = content.sizes[i];
    if (first + n > start) {
      const chunk = content.chunks[i];
      out.push(...rowsOfText(typeof chunk === 'string' ? chunk : inflateRawSync(chunk).toString('utf8'), start - first, Math.min(n, end - first), columns));
    }
    first += n;
  }
  return out;
}
