import { UserListSchema, type AuthSession, type AxiosInstance } from '@tessera/contracts';

/**
 * After sign-in the users list is fetched; when the server knows the current
 * user under another role than the token says, the token is refreshed so the
 * new role takes effect (spec 01 §4). A failed refresh signs out.
 * Resolves to true when a refresh was done.
 */
export async function syncRoleWithServer(api: AxiosInstance, session: AuthSession): Promise<boolean> {
  const me = session.user();
  if (!me) return false;
  const res = await api.get('/api/v1/users');
  const users = UserListSchema.parse(res.data);
  const onServer = users.find((u) => u.id === me.id);
  if (!onServer || onServer.role === me.role) return false;
  const token = await session.refresh();
  if (!token) session.signOut();
  return true;
}
