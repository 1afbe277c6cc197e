import { FREEZE_LIMITS, FREEZE_REMEMBERED_SHEETS, FREEZE_STORAGE_KEY } from '@tessera/contracts';
import { type FrozenPanes, NOTHING_FROZEN, SheetFreeze } from './sheet-freeze.js';

/**
 * Each sheet's frozen rows and columns, remembered in local storage across reloads (a user who froze
 * the names column expects it frozen next time, as in every peer), per signed-in user: one entry
 * holding `[sheetId, rows, cols]` for the FREEZE_REMEMBERED_SHEETS most recently frozen sheets.
 * What is read back is someone's browser storage: it is bounded before it is parsed and every
 * entry is checked; anything else is ignored (the sheet opens unfrozen) and dropped at the next write.
 */

type Entry = [sheetId: string, rows: number, cols: number];

const key = (userId: string) => `${FREEZE_STORAGE_KEY}.${userId}`;
/** An entry is about 60 characters; twice that for each remembered sheet is the most worth parsing. */
const MAX_CHARS = FREEZE_REMEMBERED_SHEETS * 120;
/** Sheet ids are UUIDs; anything much longer is no id of ours. */
const MAX_ID_CHARS = 64;

const isCount = (n: unknown, limit: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= limit;
const isEntry = (e: unknown): e is Entry =>
  Array.isArray(e) && e.length === 3 && typeof e[0] === 'string' && e[0].length > 0 && e[0].length <= MAX_ID_CHARS && isCount(e[1], FREEZE_LIMITS.rows) && isCount(e[2], FREEZE_LIMITS.columns);

function readEntries(storage: Storage, userId: string): Entry[] {
  try {
    const text = storage.getItem(key(userId));
    if (!text || text.length > MAX_CHARS) return [];
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(-FREEZE_REMEMBERED_SHEETS) : [];
  } catch {
    // Storage off, or not JSON: nothing remembered.
    return [];
  }
}

/** The sheet's remembered freeze, or nothing frozen. */
export function readFreeze(storage: Storage, userId: string, sheetId: string): FrozenPanes {
  const entry = readEntries(storage, userId).find(([id]) => id === sheetId);
  return entry ? { rows: entry[1], cols: entry[2] } : NOTHING_FROZEN;
}

/** Remembers the sheet's freeze (the most recent last; an unfrozen sheet is forgotten). */
export function writeFreeze(storage: Storage, userId: string, sheetId: string, panes: FrozenPanes): void {
  const entries = readEntries(storage, userId).filter(([id]) => id !== sheetId);
  if (panes.rows > 0 || panes.cols > 0) entries.push([sheetId, panes.rows, panes.cols]);
  try {
    storage.setItem(key(userId), JSON.stringify(entries.slice(-FREEZE_REMEMBERED_SHEETS)));
  } catch {
    // A full or disabled storage: the freeze only lasts while the sheet is open.
  }
}

/** The browser's local storage, or null where reading it throws (storage blocked by the user's settings). */
function browserStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The loaded sheet's freeze: as remembered, and remembered at each change. */
export function rememberedFreeze(userId: string, sheetId: string, storage: Storage | null = browserStorage()): SheetFreeze {
  if (!storage) return new SheetFreeze();
  return new SheetFreeze(readFreeze(storage, userId, sheetId), (panes) => writeFreeze(storage, userId, sheetId, panes));
}
