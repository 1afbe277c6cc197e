import { type AccessLevel, deriveCategory, normalizeHeaders, type SheetSummary } from '@tessera/contracts';
import type { Selectable } from 'kysely';
import type { SheetsTable } from '../db/schema.js';

export type SheetRow = Selectable<SheetsTable>;

/** A sheet row as the wire has it (§3), the metadata fields computed from the columns. */
export function toSheetSummary(row: SheetRow, isFavorite: boolean, access?: AccessLevel): SheetSummary {
  return {
    ...(access ? { access } : {}),
    id: row.id,
    name: row.name,
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    group_id: row.group_id,
    position: row.position,
    is_favorite: isFavorite,
    may_have_formulas: row.may_have_formulas,
    metadata: {
      ...row.extra,
      headers: normalizeHeaders(row.headers, row.col_count),
      description: row.description,
      tags: row.tags,
      rows: row.row_count,
      columns: row.col_count,
      groupId: row.group_id,
      position: row.position,
      category: deriveCategory(row.name, row.tags),
      size: Number(row.byte_size),
    },
  };
}
