import {
  PRESENCE_TOAST_TEXTS,
  presenceColor,
  presenceName,
  type LiveServerFrame,
  type SheetPresenceUser,
  type WorkspaceServerFrame,
} from '@tessera/contracts';

/** A join or leave to announce (spec 01 §2): the toast reads `${name} ${text}`. */
export interface PresenceNotice {
  userId: string;
  name: string;
  text: (typeof PRESENCE_TOAST_TEXTS)[keyof typeof PRESENCE_TOAST_TEXTS];
}

export interface SheetPresenceResult {
  onSheet: SheetPresenceUser[];
  notice: PresenceNotice | null;
}

const person = (userId: string, displayName: string, joinedAt: string, selection: SheetPresenceUser['selection'] = null): SheetPresenceUser => ({
  userId,
  joinedAt,
  displayName: presenceName(userId, displayName),
  selection,
  color: presenceColor(userId),
});

/**
 * The presence list of the open sheet after a frame (spec 01 §4 "Presence list"): the list on
 * join replaces it; user_joined adds a user not listed yet (a second tab changes nothing);
 * user_left removes them; a selection moves their selected cell. Frames of another sheet than
 * `sheetId` change nothing. Joins and leaves of others come back as a notice; one's own never.
 */
export function nextSheetPresence(
  onSheet: SheetPresenceUser[],
  frame: LiveServerFrame,
  sheetId: string,
  selfId: string,
  now: () => string = () => new Date().toISOString(),
): SheetPresenceResult {
  const unchanged = { onSheet, notice: null };
  switch (frame.type) {
    case 'presence': {
      if (frame.data.sheet_id !== sheetId) return unchanged;
      const seen = new Set<string>();
      const users: SheetPresenceUser[] = [];
      for (const u of frame.data.users) {
        if (seen.has(u.userId)) continue;
        seen.add(u.userId);
        const selection = u.selection ? { row: u.selection.row, col: u.selection.column } : null;
        users.push(person(u.userId, u.display_name, u.joinedAt, selection));
      }
      return { onSheet: users, notice: null };
    }
    case 'user_joined': {
      const { sheet_id, user_id, display_name } = frame.data;
      if (sheet_id !== sheetId || onSheet.some((u) => u.userId === user_id)) return unchanged;
      const joined = person(user_id, display_name, now());
      const notice = user_id === selfId ? null : { userId: user_id, name: joined.displayName, text: PRESENCE_TOAST_TEXTS.joined };
      return { onSheet: [...onSheet, joined], notice };
    }
    case 'user_left': {
      const { sheet_id, user_id, display_name } = frame.data;
      // Someone not listed leaving (a second tab's echo) is no news.
      if (sheet_id !== sheetId || !onSheet.some((u) => u.userId === user_id)) return unchanged;
      const notice = user_id === selfId ? null : { userId: user_id, name: presenceName(user_id, display_name), text: PRESENCE_TOAST_TEXTS.left };
      return { onSheet: onSheet.filter((u) => u.userId !== user_id), notice };
    }
    case 'selection': {
      const { sheet_id, user_id, display_name, selection } = frame.data;
      if (sheet_id !== sheetId) return unchanged;
      const cell = selection ? { row: selection.row, col: selection.column } : null;
      const listed = onSheet.some((u) => u.userId === user_id);
      return {
        onSheet: listed ? onSheet.map((u) => (u.userId === user_id ? { ...u, selection: cell } : u)) : [...onSheet, person(user_id, display_name, now(), cell)],
        notice: null,
      };
    }
    default:
      return unchanged;
  }
}

/** Who is online anywhere after a frame of the workspace socket `/live` (ids, one per user). */
export function nextOnline(online: string[], frame: WorkspaceServerFrame): string[] {
  switch (frame.type) {
    case 'online':
      return [...new Set(frame.data.users.map((u) => u.user_id))];
    case 'user_online':
      return online.includes(frame.data.user_id) ? online : [...online, frame.data.user_id];
    case 'user_offline':
      return online.filter((id) => id !== frame.data.user_id);
    default:
      return online;
  }
}
