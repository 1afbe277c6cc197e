import { RestoreResultSchema, TrashListSchema, type RestoreResult, type ShellContext, type TrashItem } from '@tessera/contracts';

type Api = ShellContext['api'];

/** GET /api/v1/trash: what the caller may restore, newest first. */
export async function loadTrash(api: Api): Promise<TrashItem[]> {
  const { data } = await api.get<unknown>('/api/v1/trash');
  return TrashListSchema.parse(data).items;
}

/** POST /api/v1/trash/:id/restore: back to its group (or the root when that group is gone). */
export async function restoreFromTrash(api: Api, id: string): Promise<RestoreResult> {
  const { data } = await api.post<unknown>(`/api/v1/trash/${encodeURIComponent(id)}/restore`);
  return RestoreResultSchema.parse(data);
}

/** DELETE /api/v1/trash/:id: gone for good (owners). */
export async function deleteForever(api: Api, id: string): Promise<void> {
  await api.delete<unknown>(`/api/v1/trash/${encodeURIComponent(id)}`);
}
