import { inflateRawSync } from 'node:zlib';
import { type FindQuery, type FindResult, FindScan, findNeedle, type GridData } from '@tessera/contracts';
import { chunkHoldsNoMatch } from '../sheets/sheet-find.js';
import type { KeptChunks } from './version-rows.js';

/** Chunks scanned between two turns of the event loop (~50,000 rows): other requests are answered meanwhile, and a client gone is seen. */
const CHUNKS_PER_TURN = 100;

/**
 * GET /sheets/{id}/versions/{versionId}/find's scan of a version rebuilt and kept (VersionRowsCache,
 * the chunks its preview's windows are read from): chunk by chunk in row order, the live find's
 * rule and bounds (contracts FindScan, cellMatches on the cells' text, a formula by its text as the
 * windowed preview shows it). A chunk whose text cannot hold a match (chunkHoldsNoMatch) is not
 * parsed; a deflated one is inflated alone, then let go. Stops once the answer is settled or when
 * `closed()` (the client went).
 */
export async function findInVersionChunks(content: Pick<KeptChunks, 'chunks' | 'sizes'>, query: FindQuery, closed: () => boolean): Promise<Pick<FindResult, 'matches' | 'total' | 'complete' | 'wrapped'>> {
  const scan = new FindScan(query);
  const holdsNoMatch = chunkHoldsNoMatch(findNeedle(query.q));
  let first = 0;
  for (let i = 0; i < content.chunks.length; i++) {
    if (i > 0 && i % CHUNKS_PER_TURN === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (closed()) return scan.result(false);
    }
    const chunk = content.chunks[i];
    const rows = content.sizes[i];
    const text = typeof chunk === 'string' ? chunk : inflateRawSync(chunk).toString('utf8');
    const more = holdsNoMatch?.(text.toLowerCase()) ? scan.skip(first, rows) : scan.feed(JSON.parse(text) as GridData, first);
    first += rows;
    if (!more) return scan.result(i === content.chunks.length - 1);
  }
  return scan.result(true);
}
