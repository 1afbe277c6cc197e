import { SHEET_NAME_MAX_LENGTH, sheetNameError } from '@tessera/contracts';

const IMPORT_EXTENSIONS = { csv: 'csv', xlsx: 'xlsx', xls: 'xls' } as const;

export function extensionOf(filename: string): 'csv' | 'xlsx' | 'xls' | null {
  const ext = /\.([^.]+)$/.exec(filename)?.[1]?.toLowerCase();
  return ext && ext in IMPORT_EXTENSIONS ? IMPORT_EXTENSIONS[ext as keyof typeof IMPORT_EXTENSIONS] : null;
}

/** A name taken from a file or worksheet, made valid: forbidden characters dropped, length capped; null when nothing is left. */
export function cleanName(raw: string): string | null {
  // eslint-disable-next-line no-control-regex
  const cleaned = raw.replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, SHEET_NAME_MAX_LENGTH).trim();
  return cleaned && sheetNameError(cleaned) === null ? cleaned : null;
}
