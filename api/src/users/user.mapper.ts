import { type AuthUser, RoleSchema, type User } from '@tessera/contracts';
import type { UserRow } from '../db/schema.js';

type PublicColumns = Pick<UserRow, 'id' | 'username' | 'role' | 'email' | 'nickname' | 'created_at'>;

/** The only way a user leaves the api: an explicit allow-list, so a hash can never slip out. */
export function toPublicUser(row: PublicColumns): User {
  return {
    id: row.id,
    username: row.username,
    role: RoleSchema.parse(row.role),
    email: row.email,
    nickname: row.nickname,
    created_at: row.created_at.toISOString(),
  };
}

export function toAuthUser(row: Pick<UserRow, 'id' | 'username' | 'role'>): AuthUser {
  return { id: row.id, username: row.username, role: RoleSchema.parse(row.role) };
}
