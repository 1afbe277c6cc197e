import { UserListSchema, type AuthSession, type AxiosInstance, type User } from '@tessera/contracts';

/**
 * After sign-in the users list is fetched; when the server knows the current
 * user under another role than the token says, the token is refreshed so the
 * new role takes effect (spec 01 §4). A failed refresh signs out.
 * Resolves to the server's record of the current user (its profile: nickname,
 * email), and whether a refresh was done.
 */
export async function syncRoleWithServer(
  api: AxiosInstance,
  session: AuthSession,
): Promise<{ refreshed: boolean; me: User | null }> {
  const me = session.user();
  if (!me) return { refreshed: false, me: null };
  const res = await api.get('/api/v1/users');
  const users = UserListSchema.parse(res.data);
  const onServer = users.find((u) => u.id === me.id) ?? null;
  if (!onServer || onServer.role === me.role) return { refreshed: false, me: onServer };
  const token = await session.refresh();
  if (!token) session.signOut();
  return { refreshed: true, me: onServer };
}
