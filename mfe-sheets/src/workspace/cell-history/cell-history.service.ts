import { CellHistorySchema, failedToLoadCellHistory, type CellHistory, type ShellContext } from '@tessera/contracts';
import { withRetry, type RetryOptions } from '../retry.js';
import { failure, type ServiceResult } from '../timeline/service-result.js';

/** GET /sheets/{id}/cells/{row}/{col}/history (api README § Versions): who changed the cell, when, from what to what. */
export function createCellHistoryService(api: ShellContext['api'], retry: RetryOptions = {}) {
  return {
    async history(sheetId: string, row: number, col: number): Promise<ServiceResult<CellHistory>> {
      try {
        const { data } = await withRetry(() => api.get<unknown>(`/api/v1/sheets/${encodeURIComponent(sheetId)}/cells/${row}/${col}/history`), retry);
        return { success: true, data: CellHistorySchema.parse(data) };
      } catch (error) {
        return failure(error, failedToLoadCellHistory, 'cell history');
      }
    },
  };
}

export type CellHistoryService = ReturnType<typeof createCellHistoryService>;
