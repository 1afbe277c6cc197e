import { UserListSchema, type ShellContext, type User } from '@tessera/contracts';

/** GET /api/v1/users, parsed with the contracts' schema (a reply of another shape is an error). */
export async function loadMembers(api: ShellContext['api']): Promise<User[]> {
  const res = await api.get('/api/v1/users');
  return UserListSchema.parse(res.data);
}
