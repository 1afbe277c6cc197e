import { useStore } from 'zustand';
import { saveStatus } from '../session/save-status.js';
import type { SheetSessionStore } from '../session/sheet-session.store.js';
import { SaveStatusBadge } from './SheetToolbar.js';

/** The toolbar's save status, following the session's pending edits itself: an edit renders this badge again, not the Workspace. */
export function LiveSaveStatus({ store }: { store: SheetSessionStore }) {
  const status = useStore(store, saveStatus);
  return <SaveStatusBadge status={status} />;
}
