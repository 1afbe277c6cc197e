import { SharingStateSchema, UserListSchema, type ItemType, type SharingState, type ShellContext, type UpdateSharingBody, type User } from '@tessera/contracts';

type Api = ShellContext['api'];

const accessPath = (type: ItemType, id: string) => `/api/v1/${type === 'group' ? 'groups' : 'sheets'}/${encodeURIComponent(id)}/access`;

/** GET {sheets|groups}/:id/access: direct and inherited grants, and the caller's own level. */
export async function loadSharing(api: Api, type: ItemType, id: string): Promise<SharingState> {
  const { data } = await api.get<unknown>(accessPath(type, id));
  return SharingStateSchema.parse(data);
}

/** PUT {sheets|groups}/:id/access: the item's direct grants, whole (owners only). */
export async function saveSharing(api: Api, type: ItemType, id: string, body: UpdateSharingBody): Promise<SharingState> {
  const { data } = await api.put<unknown>(accessPath(type, id), body);
  return SharingStateSchema.parse(data);
}

/** GET /api/v1/users: the members one can add (any signed-in user may list them). */
export async function loadMembers(api: Api): Promise<User[]> {
  const { data } = await api.get<unknown>('/api/v1/users');
  return UserListSchema.parse(data);
}
