import { type ChartsResult, type CreateChartBody, type UpdateChartBody, ChartsResultSchema, ErrorBodySchema, MESSAGES, type ShellContext } from '@tessera/contracts';
import { isRequestError } from '../workspace/retry.js';

export type ChartResult = { success: true; data: ChartsResult } | { success: false; error: string };

const chartsPath = (sheetId: string) => `/api/v1/sheets/${encodeURIComponent(sheetId)}/charts`;

function failure(error: unknown): ChartResult {
  if (isRequestError(error)) {
    const body = ErrorBodySchema.safeParse(error.response?.data);
    if (body.success) return { success: false, error: body.data.error.message };
    return { success: false, error: error.message || MESSAGES.unknownError };
  }
  console.error('[sheets] chart request failed', error);
  return { success: false, error: MESSAGES.unknownError };
}

/** The chart routes of issue 20 (editors only: a viewer's attempt comes back with the server's text). No retry: each is a new version. */
export function createChartService(api: ShellContext['api']) {
  const run = async (request: () => Promise<{ data: unknown }>): Promise<ChartResult> => {
    try {
      const { data } = await request();
      return { success: true, data: ChartsResultSchema.parse(data) };
    } catch (error) {
      return failure(error);
    }
  };
  return {
    // base_version: the version the range was drawn on (the server moves it through the row/column ops since).
    create: (sheetId: string, body: CreateChartBody) => run(() => api.post<unknown>(chartsPath(sheetId), body)),
    update: (sheetId: string, chartId: string, body: UpdateChartBody) => run(() => api.put<unknown>(`${chartsPath(sheetId)}/${encodeURIComponent(chartId)}`, body)),
    remove: (sheetId: string, chartId: string) => run(() => api.delete<unknown>(`${chartsPath(sheetId)}/${encodeURIComponent(chartId)}`)),
  };
}

export type ChartService = ReturnType<typeof createChartService>;
