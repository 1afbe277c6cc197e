import { DEFAULT_IMPORT_NAME, IMPORT_EXTENSIONS, sheetNameError } from '@tessera/contracts';

const EXTENSION = new RegExp(`\\.(${IMPORT_EXTENSIONS.join('|')})$`, 'i');

/**
 * The name sent with an import (spec 01 §5): the file name without its csv, xlsx or xls
 * extension, 'Imported Sheet' when nothing is left. A name the §5 rule refuses (a file named
 * `a:b.csv`) is not sent: the server then derives a valid one from the file name instead of
 * failing the whole import.
 */
export function importNameOf(fileName: string): string | undefined {
  const name = fileName.replace(EXTENSION, '').trim();
  if (name === '') return DEFAULT_IMPORT_NAME;
  return sheetNameError(name) === null ? name : undefined;
}

/** Does the file end in one of the extensions the server imports? */
export const isImportable = (fileName: string) => EXTENSION.test(fileName);
