import type { ShellContext } from '@tessera/contracts';
import { useState } from 'react';
import { duplicateSheet } from './navigator-items.service.js';

/** Spec 01 §8: a failed duplicate. */
export const DUPLICATE_FAILED = 'Failed to duplicate sheet';

/** Duplicate in a sheet's overflow menu: the copy is announced with 'sheet-created', which reloads the tree. */
export function useDuplicateSheet(shell: ShellContext) {
  const [error, setError] = useState<string | null>(null);
  const duplicate = async (sheetId: string) => {
    setError(null);
    try {
      const copy = await duplicateSheet(shell.api, sheetId);
      shell.bus.emit('sheet-created', { sheetId: copy.id, name: copy.name });
    } catch {
      setError(DUPLICATE_FAILED);
    }
  };
  return { error, duplicate: (sheetId: string) => void duplicate(sheetId) };
}
