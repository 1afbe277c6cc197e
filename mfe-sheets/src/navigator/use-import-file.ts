import { ErrorBodySchema, IMPORT_MAX_BYTES, IMPORT_TOO_LARGE_MESSAGE, type ShellContext } from '@tessera/contracts';
import { useState } from 'react';
import { importFile, importProgressId } from './import.service.js';

/** Spec 01 §8: the server refused the file ('Import failed: {server text}'). */
export const importFailed = (serverText: string) => `Import failed: ${serverText}`;
/** Spec 01 §8: the import did not reach a server answer ('Import error: ' plus the message). */
export const importError = (message: string) => `Import error: ${message}`;

/** Uploading (share sent), then processing on the server: storing once it tells the rows stored so far. */
export type ImportProgress =
  | { phase: 'idle' }
  | { phase: 'uploading'; percent: number }
  | { phase: 'processing' }
  | { phase: 'storing'; stored: number; total: number };

export interface ImportCounts {
  updatedSheets: number;
  newCategories: number;
}

/** The reply of a failed axios call, read by shape: mfe-sheets does not bundle axios itself. */
const replyOf = (error: unknown): { data: unknown } | undefined =>
  typeof error === 'object' && error !== null && (error as { isAxiosError?: boolean }).isAxiosError === true
    ? (error as { response?: { data: unknown } }).response
    : undefined;

/** The text of a failed import: the server's own message when it answered, else the transport's. */
function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reply = replyOf(error);
  if (!reply) return importError(message);
  const body = ErrorBodySchema.safeParse(reply.data);
  if (body.success) return importFailed(body.data.error.message);
  return importFailed(typeof reply.data === 'string' && reply.data.trim() !== '' ? reply.data : message);
}

/**
 * The navigator's import (spec 01 §4 Import): the chosen file is uploaded with its progress,
 * then processed by the server; on success every new sheet is announced with 'sheet-created'
 * (which reloads the tree) and the footer shows the counts; on failure an alert.
 */
export function useImportFile(shell: ShellContext) {
  const [progress, setProgress] = useState<ImportProgress>({ phase: 'idle' });
  const [counts, setCounts] = useState<ImportCounts | null>(null);
  const [error, setError] = useState<string | null>(null);

  const start = async (file: File) => {
    if (progress.phase !== 'idle') return;
    setError(null);
    // The server refuses it too, but only after the whole file has been sent.
    if (file.size > IMPORT_MAX_BYTES) {
      setError(importFailed(IMPORT_TOO_LARGE_MESSAGE));
      return;
    }
    setProgress({ phase: 'uploading', percent: 0 });
    const progressId = importProgressId();
    // The server's phase: rows stored so far, told on the workspace socket (only to this user).
    const stopListening = shell.bus.on('import-progress', (e) => {
      if (e.importId === progressId) setProgress({ phase: 'storing', stored: e.rowsStored, total: e.rowsTotal });
    });
    try {
      const result = await importFile(shell.api, file, progressId, (share) =>
        setProgress((now) => (now.phase === 'storing' ? now : share >= 1 ? { phase: 'processing' } : { phase: 'uploading', percent: Math.round(share * 100) })),
      );
      setCounts({ updatedSheets: result.updated_sheets, newCategories: result.new_categories });
      for (const sheet of result.sheets) shell.bus.emit('sheet-created', { sheetId: sheet.id, name: sheet.name });
    } catch (err) {
      setError(failureText(err));
    } finally {
      stopListening();
      setProgress({ phase: 'idle' });
    }
  };

  return { progress, counts, error, start: (file: File) => void start(file), dismissError: () => setError(null) };
}
