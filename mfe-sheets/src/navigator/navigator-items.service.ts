import { DeleteResultSchema, type MoveItemBody, FavoriteToggleResultSchema, GroupSchema, type FavoriteToggleResult, type DeleteResult, ItemResultSchema, SheetSummarySchema, type Group, type ItemResult, type ItemType, type SheetSummary } from '@tessera/contracts';
import type { ShellContext } from '@tessera/contracts';

type Api = ShellContext['api'];

/** POST /api/v1/groups {} (or {parent_id}): the server names it 'New Group', made unique (§5). */
export async function createGroup(api: Api, parentId?: string): Promise<Group> {
  const { data } = await api.post<unknown>('/api/v1/groups', parentId ? { parent_id: parentId } : {});
  return GroupSchema.parse(data);
}

/** POST /api/v1/sheets {} (or {group_id}): the server names it 'New Sheet', made unique (§5). */
export async function createSheet(api: Api, groupId?: string): Promise<SheetSummary> {
  const { data } = await api.post<unknown>('/api/v1/sheets', groupId ? { group_id: groupId } : {});
  return SheetSummarySchema.parse(data);
}

/** PUT /api/v1/items/{type}/{id}/rename {name}. */
export async function renameItem(api: Api, type: ItemType, id: string, name: string): Promise<ItemResult> {
  const { data } = await api.put<unknown>(`/api/v1/items/${type}/${id}/rename`, { name });
  return ItemResultSchema.parse(data);
}

/** DELETE /api/v1/groups/{id} (with everything inside) or /api/v1/sheets/{id}. */
export async function deleteItem(api: Api, type: ItemType, id: string): Promise<DeleteResult> {
  const { data } = await api.delete<unknown>(`/api/v1/${type === 'group' ? 'groups' : 'sheets'}/${id}`);
  return DeleteResultSchema.parse(data);
}

/** POST /api/v1/sheets/{id}/favorite: toggles the sheet among the user's favorites. */
export async function toggleFavorite(api: Api, id: string): Promise<FavoriteToggleResult> {
  const { data } = await api.post<unknown>(`/api/v1/sheets/${id}/favorite`);
  return FavoriteToggleResultSchema.parse(data);
}

/** POST /api/v1/sheets/{id}/duplicate: a copy named with ' (Copy)', made unique (§5). */
export async function duplicateSheet(api: Api, id: string): Promise<SheetSummary> {
  const { data } = await api.post<unknown>(`/api/v1/sheets/${id}/duplicate`);
  return SheetSummarySchema.parse(data);
}

/** POST /api/v1/items/move: a sheet or group into a group, or to root level with `group_id: null`. */
export async function moveItem(api: Api, item: MoveItemBody['item'], groupId: string | null): Promise<ItemResult> {
  const body: MoveItemBody = { item, target: { group_id: groupId } };
  const { data } = await api.post<unknown>('/api/v1/items/move', body);
  return ItemResultSchema.parse(data);
}
