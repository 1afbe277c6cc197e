import { CREATABLE_ROLES, isAdminLike, type Role } from './role.js';

export interface MemberActor {
  id: string;
  role: string;
}

export interface MemberTarget {
  id: string;
  role: string;
}

/**
 * What one member may do to another (spec 01 §4, §6): the api enforces it, and the Members
 * panel offers only what it allows.
 */
export type MemberAction =
  | { kind: 'create'; role: Role }
  | { kind: 'editInfo'; target: MemberTarget }
  | { kind: 'setPassword'; target: MemberTarget }
  | { kind: 'promote'; target: MemberTarget }
  | { kind: 'delete'; target: MemberTarget };

const ADMIN_ONLY = 'Only admins can manage other members';

/** Who outranks whom: a member is managed only by someone of at least their rank. */
const RANK: Record<string, number> = { user: 0, admin: 1, host: 2, superadmin: 3 };
const rankOf = (role: string) => RANK[role.toLowerCase()] ?? -1;
const withArticle = (role: string) => `${/^[aeiou]/i.test(role) ? 'An' : 'A'} ${role.toLowerCase()}`;

/** An admin taking over (or removing) a host's or superadmin's account would be an escalation. */
function outranked(actor: MemberActor, target: MemberTarget, what: (target: string) => string): string | null {
  if (rankOf(actor.role) >= rankOf(target.role)) return null;
  return `${withArticle(actor.role)} cannot ${what(withArticle(target.role).toLowerCase())}`;
}

/**
 * Null when allowed, else the reason for a 403. Roles compare case-insensitively.
 * - create, and anything done to another member, needs an admin-like role (admin, host, superadmin);
 * - a new member is a user or an admin, never host or superadmin;
 * - promote sets admin: not for host users (spec: hidden for host), nor for a superadmin (it would lower them);
 * - host users cannot be deleted, and nobody deletes themselves;
 * - nobody edits the info of, sets the password of, or deletes a member of a higher rank
 *   (user < admin < host < superadmin): an admin cannot take over a host's or superadmin's account;
 * - one's own password changes only with the current one (POST /auth/change-password).
 */
export function memberRefusal(actor: MemberActor, action: MemberAction): string | null {
  const admin = isAdminLike(actor.role);
  if (action.kind === 'create') {
    if (!admin) return ADMIN_ONLY;
    return (CREATABLE_ROLES as readonly string[]).includes(action.role) ? null : 'New members can only be user or admin';
  }
  const { target } = action;
  const self = target.id === actor.id;
  const targetRole = target.role.toLowerCase();
  switch (action.kind) {
    case 'editInfo':
      if (self) return null;
      if (!admin) return ADMIN_ONLY;
      return outranked(actor, target, (t) => `edit the info of ${t}`);
    case 'setPassword':
      if (self) return 'Changing your own password needs your current password (POST /api/v1/auth/change-password)';
      if (!admin) return ADMIN_ONLY;
      return outranked(actor, target, (t) => `change the password of ${t}`);
    case 'promote':
      if (!admin) return ADMIN_ONLY;
      if (targetRole === 'host') return 'Host users cannot be promoted';
      if (targetRole === 'superadmin') return 'A superadmin cannot be changed to admin';
      return null;
    case 'delete':
      if (!admin) return ADMIN_ONLY;
      if (self) return 'You cannot delete your own account';
      if (targetRole === 'host') return 'Host users cannot be deleted';
      return outranked(actor, target, (t) => `delete ${t}`);
  }
}
