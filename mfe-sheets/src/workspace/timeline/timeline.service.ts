import {
  ErrorBodySchema,
  MESSAGES,
  SNAPSHOT_LIST_LIMIT,
  SnapshotListSchema,
  VersionTransitionResultSchema,
  failedToLoadSnapshots,
  failedToRestoreSnapshot,
  type ShellContext,
  type Snapshot,
  type VersionTransitionResult,
} from '@tessera/contracts';
import { isRequestError, withRetry, type RetryOptions } from '../retry.js';

export type TimelineResult<T> = { success: true; data: T } | { success: false; error: string };

const snapshotsPath = (id: string) => `/api/v1/sheets/${encodeURIComponent(id)}/snapshots`;

/** The server's own message when it sent `{error:{message}}`, else '{status} {statusText}' or the transport's message. */
function detail(error: unknown): string {
  if (!isRequestError(error)) return MESSAGES.unknownError;
  const body = ErrorBodySchema.safeParse(error.response?.data);
  if (body.success) return body.data.error.message;
  if (!error.response) return error.message || MESSAGES.unknownError;
  return `${error.response.status} ${error.response.statusText}`.trim();
}

function failure<T>(error: unknown, text: (detail: string) => string): TimelineResult<T> {
  // A reply that does not match the contracts' schema, or a bug: logged, never shown raw.
  if (!isRequestError(error)) console.error('[sheets] timeline: unexpected failure', error);
  return { success: false, error: text(detail(error)) };
}

/** The Timeline menu's calls (api README § Versions), every reply parsed with the contracts' schemas. */
export function createTimelineService(api: ShellContext['api'], retry: RetryOptions = {}) {
  return {
    /** The newest 60 Timeline entries, newest first (spec 02 §9 snapshot list limit). */
    async list(sheetId: string): Promise<TimelineResult<Snapshot[]>> {
      try {
        const { data } = await withRetry(() => api.get<unknown>(snapshotsPath(sheetId), { params: { limit: SNAPSHOT_LIST_LIMIT } }), retry);
        return { success: true, data: SnapshotListSchema.parse(data).snapshots };
      } catch (error) {
        return failure(error, failedToLoadSnapshots);
      }
    },

    /** That version's content becomes a new live version. Not retried: a second attempt would add another version. */
    async restore(sheetId: string, version: number): Promise<TimelineResult<VersionTransitionResult>> {
      try {
        const { data } = await api.post<unknown>(`${snapshotsPath(sheetId)}/${version}/restore`);
        return { success: true, data: VersionTransitionResultSchema.parse(data) };
      } catch (error) {
        return failure(error, failedToRestoreSnapshot);
      }
    },
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;
