import { ErrorBodySchema, MESSAGES } from '@tessera/contracts';
import { isRequestError } from '../retry.js';

/** What the version calls (Timeline, preview, cell history) answer: the data, or the text to show. */
export type ServiceResult<T> = { success: true; data: T } | { success: false; error: string; status?: number };

/** The server's own message when it sent `{error:{message}}`, else '{status} {statusText}' or the transport's message. */
export function requestDetail(error: unknown): string {
  if (!isRequestError(error)) return MESSAGES.unknownError;
  const body = ErrorBodySchema.safeParse(error.response?.data);
  if (body.success) return body.data.error.message;
  if (!error.response) return error.message || MESSAGES.unknownError;
  return `${error.response.status} ${error.response.statusText}`.trim();
}

/** A failed call as a result; a reply that does not match the contracts' schema (or a bug) is logged, never shown raw. */
export function failure<T>(error: unknown, text: (detail: string) => string, what = 'versions'): ServiceResult<T> {
  if (!isRequestError(error)) console.error(`[sheets] ${what}: unexpected failure`, error);
  return { success: false, error: text(requestDetail(error)), ...(isRequestError(error) && error.response ? { status: error.response.status } : {}) };
}
