import { isAxiosError } from 'axios';
import { ErrorBodySchema } from './error-body.schema.js';

/**
 * The text to show for a failed call: the service's `{ error: { message } }`
 * when it sent one, else the transport's message. Lets remotes report errors
 * without bundling a second axios.
 */
export function describeError(error: unknown): string {
  if (isAxiosError(error)) {
    const body = ErrorBodySchema.safeParse(error.response?.data);
    return body.success ? body.data.error.message : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
