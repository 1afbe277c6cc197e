import { z } from 'zod';

export const ROLES = ['user', 'admin', 'host', 'superadmin'] as const;
/** Roles are compared case-insensitively (spec 01 §6): parsed to lower case. */
export const RoleSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.toLowerCase() : v),
  z.enum(ROLES),
);
export type Role = (typeof ROLES)[number];

/** Roles that may be chosen when an account is created (spec 01 §5). */
export const CREATABLE_ROLES = ['user', 'admin'] as const satisfies readonly Role[];

const ADMIN_LIKE: readonly Role[] = ['admin', 'host', 'superadmin'];
export const isAdminLike = (role: string | undefined | null): boolean =>
  !!role && (ADMIN_LIKE as readonly string[]).includes(role.toLowerCase());
