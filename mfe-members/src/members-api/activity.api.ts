import { type ActivityKind, type ActivityPage, ActivityPageSchema, type ShellContext } from '@tessera/contracts';

type Api = ShellContext['api'];

/** The Activity screen's filters; empty means "any". */
export interface ActivityFilters {
  userId: string;
  kind: ActivityKind | '';
  itemId: string;
}

export const NO_FILTERS: ActivityFilters = { userId: '', kind: '', itemId: '' };

/** The query string of GET /api/v1/activity: only the filters set, and `before` for an older page. */
export function activityQuery(filters: ActivityFilters, before: number | null): string {
  const params = new URLSearchParams();
  if (filters.userId) params.set('user_id', filters.userId);
  if (filters.itemId.trim()) params.set('item_id', filters.itemId.trim());
  if (filters.kind) params.set('kind', filters.kind);
  if (before !== null) params.set('before', String(before));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** One page of the activity log, newest first (admins only; the server enforces it). */
export async function loadActivity(api: Api, filters: ActivityFilters, before: number | null): Promise<ActivityPage> {
  const res = await api.get(`/api/v1/activity${activityQuery(filters, before)}`);
  return ActivityPageSchema.parse(res.data);
}
