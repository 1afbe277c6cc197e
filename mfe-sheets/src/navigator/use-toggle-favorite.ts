import type { ShellContext } from '@tessera/contracts';
import { useState } from 'react';
import { toggleFavorite } from './navigator-items.service.js';

/** Navigator text of a failed favorite toggle (spec 01 §8). */
export const TOGGLE_FAVORITE_FAILED = 'Failed to toggle favorite';

/** Add to Favorites / Remove from Favorites of a sheet's menu; the tree reloads to show the new state. */
export function useToggleFavorite(shell: ShellContext, reload: () => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const toggle = async (sheetId: string) => {
    setError(null);
    try {
      await toggleFavorite(shell.api, sheetId);
      await reload();
    } catch {
      setError(TOGGLE_FAVORITE_FAILED);
    }
  };
  return { error, toggle: (sheetId: string) => void toggle(sheetId) };
}
