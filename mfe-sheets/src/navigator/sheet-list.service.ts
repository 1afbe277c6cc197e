import { RECENT_SHEETS_LIMIT, SheetListSchema, type SheetList, type ShellContext } from '@tessera/contracts';

type Api = ShellContext['api'];

/** What a flat view of the navigator lists instead of the tree. */
export type SheetListView = { kind: 'favorites' } | { kind: 'recent' } | { kind: 'search'; text: string };

/** The query of each view, as spec 01 §7 writes the calls. */
export function sheetListParams(view: SheetListView): Record<string, string> {
  switch (view.kind) {
    case 'favorites':
      return { favorites: 'true' };
    case 'recent':
      return { limit: String(RECENT_SHEETS_LIMIT), sort: 'updated_at', order: 'desc' };
    case 'search':
      return { search: view.text };
  }
}

/** GET /api/v1/sheets with the view's query; the reply is checked against the contracts. */
export async function listSheets(api: Api, view: SheetListView, signal?: AbortSignal): Promise<SheetList> {
  const { data } = await api.get<unknown>('/api/v1/sheets', { params: sheetListParams(view), signal });
  return SheetListSchema.parse(data);
}
