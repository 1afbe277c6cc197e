import {
  FindResultSchema,
  SheetVersionSchema,
  VersionTransitionResultSchema,
  applyAction,
  failedToLoadVersion,
  failedVersionAction,
  parseVersionRows,
  type FindQuery,
  type FindResult,
  type SheetVersion,
  type ShellContext,
  type VersionRows,
  type VersionStatus,
  type VersionTransitionResult,
} from '@tessera/contracts';
import { padRows, storedSize } from '../grid/grid-shape.js';
import { withRetry, type RetryOptions } from '../retry.js';
import { failure, type ServiceResult } from '../timeline/service-result.js';

const versionPath = (sheetId: string, versionId: string) => `/api/v1/sheets/${encodeURIComponent(sheetId)}/versions/${encodeURIComponent(versionId)}`;

/** The preview's calls (api README § Versions), every reply parsed with the contracts' schemas. */
export function createVersionService(api: ShellContext['api'], retry: RetryOptions = {}) {
  return {
    /** A version's headers and rows (and the cells it changed). Retried like the sheet service: a read. */
    async get(sheetId: string, versionId: string): Promise<ServiceResult<SheetVersion>> {
      try {
        const { data } = await withRetry(() => api.get<unknown>(versionPath(sheetId, versionId)), retry);
        const version = SheetVersionSchema.parse(data);
        // Stored rows may be shorter than the sheet (an empty row is []): the grid takes its
        // column count from the first row, so every row gets the version's full width.
        padRows(version.rows, storedSize(version.rows, version.rows.length, version.headers.length).cols);
        return { success: true, data: version };
      } catch (error) {
        return failure(error, failedToLoadVersion, 'preview');
      }
    },

    /**
     * Rows [start, start + count) of a version (issue 23: the preview of a windowed sheet);
     * `summary`: with the version without its rows. Retried: a read.
     */
    async rows(sheetId: string, versionId: string, start: number, count: number, summary = false, columns?: { start: number; count: number }): Promise<ServiceResult<VersionRows>> {
      try {
        const params = {
          start: String(start),
          count: String(count),
          ...(summary ? { summary: '1' } : {}),
          ...(columns ? { col_start: String(columns.start), col_count: String(columns.count) } : {}),
        };
        const { data } = await withRetry(() => api.get<unknown>(`${versionPath(sheetId, versionId)}/rows`, { params }), retry);
        return { success: true, data: parseVersionRows(data) };
      } catch (error) {
        return failure(error, failedToLoadVersion, 'preview');
      }
    },

    /**
     * The next matches of a find in a version of a windowed sheet (its preview), found by the api in
     * that version's rows (GET .../versions/{id}/find). Not retried: the find bar asks again as the user goes.
     */
    async find(sheetId: string, versionId: string, query: FindQuery): Promise<ServiceResult<FindResult>> {
      try {
        const params: Record<string, string> = { q: query.q, direction: query.direction, limit: String(query.limit) };
        if (query.after_row !== undefined && query.after_col !== undefined) Object.assign(params, { after_row: String(query.after_row), after_col: String(query.after_col) });
        const { data } = await api.get<unknown>(`${versionPath(sheetId, versionId)}/find`, { params });
        return { success: true, data: FindResultSchema.parse(data) };
      } catch (error) {
        return failure(error, failedToLoadVersion, 'preview');
      }
    },

    /**
     * Apply (spec 02 §4): a proposal is accepted, an archived version checked out; either makes a
     * new live version. Not retried: a second attempt would make another version.
     */
    async apply(sheetId: string, versionId: string, status: VersionStatus): Promise<ServiceResult<VersionTransitionResult> | null> {
      const action = applyAction(status);
      if (action === null) return null;
      try {
        const { data } = await api.post<unknown>(`${versionPath(sheetId, versionId)}/${action}`);
        return { success: true, data: VersionTransitionResultSchema.parse(data) };
      } catch (error) {
        return failure(error, (detail) => failedVersionAction(action, detail), 'preview');
      }
    },
  };
}

export type VersionService = ReturnType<typeof createVersionService>;
