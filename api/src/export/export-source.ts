import type { CellValue, SheetSummary } from '@tessera/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { SheetsService } from '../sheets/sheets.service.js';
import { exactHeldCells, readChunkTexts } from '../sheets/sheet-store.js';

/** The user id for reading a summary without a user (the favourite flag is not exported). */
const NO_USER = '00000000-0000-0000-0000-000000000000';

/**
 * What an export reads: the summary and each stored chunk's text, from one snapshot. The
 * chunks stay as their stored text (what the sheet holds, never a grid padded to rows ×
 * columns) and are parsed one at a time while the file is written; the transaction ends
 * before the first byte is sent, so a slow download holds no database connection. With `heldCells`
 * (the XLSX export, whose formula bound reads it instead of counting the cells) the summary carries
 * held_cells when the database knows it exactly; CSV and JSON need no count.
 */
export interface ExportSource {
  summary: SheetSummary;
  /** The chunks in row order (each holds its own number of rows); a slot is emptied once read with `release`. */
  chunks: (string | null)[];
}

export async function readExportSource(db: Kysely<Database>, sheets: SheetsService, id: string, heldCells = false): Promise<ExportSource> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      let summary = await sheets.summary(trx, id, NO_USER);
      if (heldCells && summary.may_have_formulas !== false && summary.held_cells === undefined) {
        const held = await exactHeldCells(trx, id);
        if (held !== undefined) summary = { ...summary, held_cells: held };
      }
      return { summary, chunks: await readChunkTexts(trx, id) };
    });
}

/**
 * The rows chunk by chunk (each chunk's rows parsed only when it is reached); with `release`,
 * each chunk's text is dropped once parsed, so memory falls as the file is written.
 */
export function* chunkRows(source: ExportSource, release: boolean): Generator<CellValue[][]> {
  for (let i = 0; i < source.chunks.length; i++) {
    const text = source.chunks[i];
    if (text === null) throw new Error(`chunk ${i} was already released`);
    if (release) source.chunks[i] = null;
    yield JSON.parse(text) as CellValue[][];
  }
}
