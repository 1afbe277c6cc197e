import { CHAT_PANEL_WIDTH, CHAT_PANEL_WIDTH_STORAGE_KEY } from '@tessera/contracts';

/** Keeps the panel within the spec's bounds (320–800 px). */
export const clampPanelWidth = (width: number): number =>
  Math.min(CHAT_PANEL_WIDTH.max, Math.max(CHAT_PANEL_WIDTH.min, Math.round(width)));

/** The width the user left the panel at, or the default (also for anything unreadable). */
export function readPanelWidth(storage: Storage = localStorage): number {
  const saved = Number(storage.getItem(CHAT_PANEL_WIDTH_STORAGE_KEY));
  return Number.isFinite(saved) && saved > 0 ? clampPanelWidth(saved) : CHAT_PANEL_WIDTH.default;
}

export function writePanelWidth(width: number, storage: Storage = localStorage): void {
  try {
    storage.setItem(CHAT_PANEL_WIDTH_STORAGE_KEY, String(width));
  } catch {
    // A full or disabled storage only loses the memory of the width.
  }
}
