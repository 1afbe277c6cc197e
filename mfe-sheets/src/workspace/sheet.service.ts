import {
  DeleteResultSchema,
  ErrorBodySchema,
  MESSAGES,
  SheetConflictDetailsSchema,
  SheetSummarySchema,
  failedToDeleteSheet,
  failedToLoadSheet,
  failedToSaveSheet,
  normalizeHeaders,
  parseSheet,
  parseSheetRows,
  type ExportFormat,
  type ColumnFilterBody,
  type FilteredFindBody,
  type FindQuery,
  type FindResult,
  FindResultSchema,
  type GridData,
  type Sheet,
  type SheetConflictDetails,
  type SheetFilterBody,
  type SheetFilterResult,
  SheetFilterResultSchema,
  type SheetFilterValuesBody,
  type SheetFilterValuesResult,
  SheetFilterValuesResultSchema,
  type SheetRows,
  type SheetSummary,
  type ShellContext,
  type UpdateSheetBody,
} from '@tessera/contracts';
import { isRequestError, withRetry, type RetryOptions } from './retry.js';
import { requestDetail } from './timeline/service-result.js';

/** Sheet service results (spec 01 §8): failures come back as `success: false` with the text to show. */
export type SheetResult<T> =
  | { success: true; data: T }
  | { success: false; error: string; status?: number; conflict?: SheetConflictDetails };

export interface SaveSheetInput {
  id: string;
  name?: string;
  headers: readonly string[];
  data: GridData;
  /** The version the grid was loaded or last saved at: the server merges cell by cell from it. */
  baseVersion: number;
}

const sheetPath = (id: string) => `/api/v1/sheets/${encodeURIComponent(id)}`;

/** '{status} {statusText}' of a failed reply, or the transport's message when none came (a load does not show the server's text). */
function replyDetail(error: unknown): string {
  if (!isRequestError(error) || !error.response) return requestDetail(error);
  return `${error.response.status} ${error.response.statusText}`.trim();
}

function failure<T>(error: unknown, text: (error: unknown) => string): SheetResult<T> {
  if (!isRequestError(error)) {
    // A reply that does not match the contracts' schema, or a bug: never shown raw.
    console.error('[sheets] unexpected failure', error);
    return { success: false, error: MESSAGES.unknownError };
  }
  const status = error.response?.status;
  const details = status === 409 ? ErrorBodySchema.safeParse(error.response?.data) : null;
  const conflict = details?.success ? SheetConflictDetailsSchema.safeParse(details.data.error.details) : null;
  return { success: false, error: text(error), status, ...(conflict?.success ? { conflict: conflict.data } : {}) };
}

/**
 * Headers for a save (spec 01 §4): when the grid has rows, trimmed or padded with
 * letter labels to the column count of the first row.
 */
export function headersForSave(headers: readonly string[], data: GridData): string[] {
  return data.length > 0 ? normalizeHeaders(headers, data[0].length) : [...headers];
}

/**
 * The sheet calls of the Workspace against the api, with the §9 retry (3 attempts, 1 s then
 * 2 s, network errors and 5xx only) and every reply parsed with the contracts' schemas.
 */
export function createSheetService(api: ShellContext['api'], retry: RetryOptions = {}) {
  const call = <T>(request: () => Promise<T>) => withRetry(request, retry);

  return {
    /** `window`: a sheet shown a window at a time comes with its first `window` rows only (`windowed`). */
    async load(id: string, window?: number): Promise<SheetResult<Sheet>> {
      try {
        const { data } = await call(() => api.get<unknown>(sheetPath(id), window === undefined ? undefined : { params: { window: String(window) } }));
        // parseSheet: SheetSchema's checks, in milliseconds instead of seconds on a 100k-row grid.
        return { success: true, data: parseSheet(data) };
      } catch (error) {
        return failure(error, (e) => failedToLoadSheet(replyDetail(e)));
      }
    },

    /**
     * Rows [start, start + count) with the sheet's version and size (issue 23); `summary`: with the
     * sheet's summary; `columns`: each row of those columns only (a whole-column Delete or Copy).
     */
    async rows(id: string, start: number, count: number, summary = false, columns?: { start: number; count: number }): Promise<SheetResult<SheetRows>> {
      try {
        const params = {
          start: String(start),
          count: String(count),
          ...(summary ? { summary: '1' } : {}),
          ...(columns ? { col_start: String(columns.start), col_count: String(columns.count) } : {}),
        };
        const { data } = await call(() => api.get<unknown>(`${sheetPath(id)}/rows`, { params }));
        return { success: true, data: parseSheetRows(data) };
      } catch (error) {
        return failure(error, (e) => failedToLoadSheet(replyDetail(e)));
      }
    },

    /**
     * The next matches of a find in a windowed sheet, found by the api in its stored rows (GET
     * /sheets/:id/find); with the user's row filter on (`filters`), in the rows it shows only (POST
     * /sheets/:id/find: a values filter's texts do not fit a URL).
     */
    async find(id: string, query: FindQuery, filters: ColumnFilterBody[] = []): Promise<SheetResult<FindResult>> {
      try {
        const params: Record<string, string> = { q: query.q, direction: query.direction, limit: String(query.limit) };
        if (query.after_row !== undefined && query.after_col !== undefined) Object.assign(params, { after_row: String(query.after_row), after_col: String(query.after_col) });
        const body: FilteredFindBody = { ...query, filters };
        const { data } = await call(() => (filters.length > 0 ? api.post<unknown>(`${sheetPath(id)}/find`, body) : api.get<unknown>(`${sheetPath(id)}/find`, { params })));
        return { success: true, data: FindResultSchema.parse(data) };
      } catch (error) {
        return failure(error, (e) => failedToLoadSheet(replyDetail(e)));
      }
    },

    /** The rows a row filter shows in a windowed sheet, judged by the api (POST /sheets/:id/filter: packed runs, contracts unpackRuns). */
    async filter(id: string, body: SheetFilterBody): Promise<SheetResult<SheetFilterResult>> {
      try {
        const { data } = await call(() => api.post<unknown>(`${sheetPath(id)}/filter`, body));
        return { success: true, data: SheetFilterResultSchema.parse(data) };
      } catch (error) {
        return failure(error, (e) => failedToLoadSheet(replyDetail(e)));
      }
    },

    /** A windowed sheet's column values as the filter's dialog lists them (POST /sheets/:id/filter/values). */
    async filterValues(id: string, body: SheetFilterValuesBody): Promise<SheetResult<SheetFilterValuesResult>> {
      try {
        const { data } = await call(() => api.post<unknown>(`${sheetPath(id)}/filter/values`, body));
        return { success: true, data: SheetFilterValuesResultSchema.parse(data) };
      } catch (error) {
        return failure(error, (e) => failedToLoadSheet(replyDetail(e)));
      }
    },

    /** The Save command: PUT with the whole grid, its normalised headers and the base version. */
    async save(input: SaveSheetInput): Promise<SheetResult<SheetSummary>> {
      const body: UpdateSheetBody = {
        ...(input.name !== undefined ? { name: input.name } : {}),
        headers: headersForSave(input.headers, input.data),
        data: input.data,
        base_version: input.baseVersion,
      };
      try {
        const { data } = await call(() => api.put<unknown>(sheetPath(input.id), body));
        return { success: true, data: SheetSummarySchema.parse(data) };
      } catch (error) {
        return failure(error, (e) => failedToSaveSheet(requestDetail(e)));
      }
    },

    async remove(id: string): Promise<SheetResult<{ id: string }>> {
      try {
        const { data } = await call(() => api.delete<unknown>(sheetPath(id)));
        return { success: true, data: { id: DeleteResultSchema.parse(data).id } };
      } catch (error) {
        return failure(error, (e) => failedToDeleteSheet(requestDetail(e)));
      }
    },

    async duplicate(id: string): Promise<SheetResult<SheetSummary>> {
      try {
        const { data } = await call(() => api.post<unknown>(`${sheetPath(id)}/duplicate`));
        return { success: true, data: SheetSummarySchema.parse(data) };
      } catch (error) {
        return failure(error, (e) =>
          isRequestError(e) && e.response?.status === 404 ? MESSAGES.sheetNotFound : MESSAGES.failedToDuplicateSheet,
        );
      }
    },

    /** The server's export (a real XLSX workbook, quoted CSV, JSON) as bytes. */
    async exportFile(id: string | null, format: ExportFormat): Promise<SheetResult<Blob>> {
      if (id === null) return { success: false, error: MESSAGES.noSheetForExport };
      try {
        const reply = await call(() =>
          api.get<ArrayBuffer>(`${sheetPath(id)}/export`, { params: { format }, responseType: 'arraybuffer' }),
        );
        const type = String(reply.headers['content-type'] ?? 'application/octet-stream');
        return { success: true, data: new Blob([reply.data], { type }) };
      } catch (error) {
        return failure(error, () => MESSAGES.exportFailed);
      }
    },
  };
}

export type SheetService = ReturnType<typeof createSheetService>;
