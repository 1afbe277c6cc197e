import {
  SNAPSHOT_LIST_LIMIT,
  SnapshotListSchema,
  VersionTransitionResultSchema,
  failedToLoadSnapshots,
  failedToRestoreSnapshot,
  type ShellContext,
  type Snapshot,
  type VersionTransitionResult,
} from '@tessera/contracts';
import { withRetry, type RetryOptions } from '../retry.js';
import { failure, type ServiceResult } from './service-result.js';

export type TimelineResult<T> = ServiceResult<T>;

const snapshotsPath = (id: string) => `/api/v1/sheets/${encodeURIComponent(id)}/snapshots`;

/** The Timeline menu's calls (api README § Versions), every reply parsed with the contracts' schemas. */
export function createTimelineService(api: ShellContext['api'], retry: RetryOptions = {}) {
  return {
    /** The newest 60 Timeline entries, newest first (spec 02 §9 snapshot list limit). */
    async list(sheetId: string): Promise<TimelineResult<Snapshot[]>> {
      try {
        const { data } = await withRetry(() => api.get<unknown>(snapshotsPath(sheetId), { params: { limit: SNAPSHOT_LIST_LIMIT } }), retry);
        return { success: true, data: SnapshotListSchema.parse(data).snapshots };
      } catch (error) {
        return failure(error, failedToLoadSnapshots, 'timeline');
      }
    },

    /** That version's content becomes a new live version. Not retried: a second attempt would add another version. */
    async restore(sheetId: string, version: number): Promise<TimelineResult<VersionTransitionResult>> {
      try {
        const { data } = await api.post<unknown>(`${snapshotsPath(sheetId)}/${version}/restore`);
        return { success: true, data: VersionTransitionResultSchema.parse(data) };
      } catch (error) {
        return failure(error, failedToRestoreSnapshot, 'timeline');
      }
    },
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;
