import type { AccessLevel, ShareEntry, SharingRow, SharingState } from '@tessera/contracts';

/** The level names the dialog shows. */
export const LEVEL_LABELS: Record<AccessLevel, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer', none: 'No access' };

export const SHARING_TEXTS = {
  everyone: 'Everyone in the workspace',
  /** The Everyone row's choice of no direct grant: what the parent group (or the workspace default) gives. */
  inherit: 'Inherit',
  readOnlyNote: 'Only owners can change who has access.',
  loadFailed: 'Failed to load sharing',
  saveFailed: 'Failed to save sharing',
  membersFailed: 'Failed to load members',
  addMember: 'Add a member',
  inheritedHeading: 'Through parent groups',
} as const;

/** The level a member added in the dialog starts with. */
export const ADDED_MEMBER_LEVEL: AccessLevel = 'viewer';

/** A direct grant being edited, with the name to show. */
export interface DraftEntry extends ShareEntry {
  username: string | null;
}

/** The item's own grants out of the server's rows (they come first, inherited ones after). */
export const directEntries = (state: SharingState): DraftEntry[] =>
  state.rows.filter((r) => r.inherited_from === null).map((r) => ({ user_id: r.user_id, level: r.level, username: r.username }));

export const inheritedRows = (state: SharingState): SharingRow[] => state.rows.filter((r) => r.inherited_from !== null);

/**
 * What Everyone has without a grant here: the nearest parent group's Everyone grant, else the
 * workspace default (which holds for root items).
 */
export function inheritedEveryone(state: SharingState): { level: AccessLevel; from: string | null } {
  const row = inheritedRows(state).find((r) => r.user_id === null);
  return row ? { level: row.level, from: row.inherited_from?.name ?? null } : { level: state.workspace_default, from: null };
}

/** The PUT body: every direct grant, Everyone's included when it is not inherited. */
export const sharingBody = (entries: readonly DraftEntry[]) => ({ entries: entries.map(({ user_id, level }) => ({ user_id, level })) });
