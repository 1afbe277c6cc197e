import { SAVE_STATUS_LABELS } from '@tessera/contracts';

export type SaveStatus = keyof typeof SAVE_STATUS_LABELS;

/**
 * The toolbar's save status (spec 01 §4): Error if there is an error, else Saved if a
 * last-saved time exists, else Unsaved. Edits still waiting to be sent clear the last-saved
 * time until they are written, so they show Unsaved.
 */
export function saveStatus(state: { saveError: string | null; lastSavedAt: string | null; pending: boolean }): SaveStatus {
  if (state.saveError !== null) return 'error';
  if (state.lastSavedAt !== null && !state.pending) return 'saved';
  return 'unsaved';
}
