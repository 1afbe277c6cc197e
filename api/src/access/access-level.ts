import { type AccessLevel, isAdminLike, type WorkspaceDefaultAccess } from '@tessera/contracts';

/** The grants one level of the tree (a group, or the sheet itself) holds for one member. */
export interface LevelGrants {
  /** The member's own grant here, if any. */
  user?: AccessLevel;
  /** The grant to everyone in the workspace here, if any. */
  everyone?: AccessLevel;
  /** The item is in the trash (it and everything under it is gone for everyone). */
  trashed: boolean;
}

/** What a member has from the root down to one item, before the item's own level is decided. */
export interface Inherited {
  /** The nearest grant to the member by name. */
  user?: AccessLevel;
  /** The nearest grant to everyone. */
  everyone?: AccessLevel;
  /** Owner of some item above: an owner keeps their subtree whatever is shared below. */
  ownerAbove: boolean;
  trashed: boolean;
}

export const ROOT: Inherited = { ownerAbove: false, trashed: false };

/** One step down the tree: what the item's children inherit. */
export function descend(parent: Inherited, here: LevelGrants): Inherited {
  return {
    user: here.user ?? parent.user,
    everyone: here.everyone ?? parent.everyone,
    ownerAbove: parent.ownerAbove || here.user === 'owner',
    trashed: parent.trashed || here.trashed,
  };
}

/**
 * The member's level on an item, given what it inherits with its own grants folded in
 * (`descend(parent, own)`): an admin-like role owns everything in place; what is in the trash
 * is gone; an owner above keeps ownership; then the nearest grant by name, then the nearest grant
 * to everyone, then the workspace default.
 */
export function levelOf(state: Inherited, role: string, workspaceDefault: WorkspaceDefaultAccess): AccessLevel {
  if (state.trashed) return 'none';
  if (isAdminLike(role) || state.ownerAbove) return 'owner';
  return state.user ?? state.everyone ?? workspaceDefault;
}
