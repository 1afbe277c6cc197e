import {
  type ChangePasswordBody,
  type CreateUserBody,
  type ShellContext,
  type UpdateUserBody,
  type User,
  UserSchema,
} from '@tessera/contracts';

type Api = ShellContext['api'];

/** POST /api/v1/users (admin-like only; the server enforces it). */
export async function createMember(api: Api, body: CreateUserBody): Promise<User> {
  const res = await api.post('/api/v1/users', body);
  return UserSchema.parse(res.data);
}

/** PUT /api/v1/users/{id} with only the fields to change. */
export async function updateMember(api: Api, id: string, body: UpdateUserBody): Promise<User> {
  const res = await api.put(`/api/v1/users/${encodeURIComponent(id)}`, body);
  return UserSchema.parse(res.data);
}

export async function deleteMember(api: Api, id: string): Promise<void> {
  await api.delete(`/api/v1/users/${encodeURIComponent(id)}`);
}

/** One's own password, with the current one (spec 01 §6). */
export async function changeOwnPassword(api: Api, body: ChangePasswordBody): Promise<void> {
  await api.post('/api/v1/auth/change-password', body);
}

/** Edit Info sends only the non-empty nickname and email (spec 01 §5). */
export function infoChanges(nickname: string, email: string): UpdateUserBody | null {
  const body: UpdateUserBody = {};
  if (nickname.trim()) body.nickname = nickname.trim();
  if (email.trim()) body.email = email.trim();
  return Object.keys(body).length ? body : null;
}
