import { CHAT_PANEL_WIDTH } from '@tessera/contracts';

/** Keeps the panel within the spec's bounds (320–800 px). */
export const clampPanelWidth = (width: number): number =>
  Math.min(CHAT_PANEL_WIDTH.max, Math.max(CHAT_PANEL_WIDTH.min, Math.round(width)));
