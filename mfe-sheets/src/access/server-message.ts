import { ErrorBodySchema, MESSAGES } from '@tessera/contracts';
import { isRequestError } from '../workspace/retry.js';

/** The server's own text (`{error:{message}}`) of a failed call, else `fallback`. */
export function serverMessage(error: unknown, fallback: string): string {
  if (isRequestError(error)) {
    const body = ErrorBodySchema.safeParse(error.response?.data);
    if (body.success) return body.data.error.message;
    return fallback;
  }
  console.error('[sheets] unexpected failure', error);
  return fallback || MESSAGES.unknownError;
}
