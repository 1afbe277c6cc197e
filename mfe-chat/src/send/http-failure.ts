import { describeError } from '@tessera/contracts';
import { bodyText, httpError } from './stream-errors.js';

/** A failed JSON call as spec 02 §8 shows it: 'HTTP {status}: {body}' when the server answered, else the transport's message. */
export function httpFailure(error: unknown): string {
  const response = (error as { response?: { status?: unknown; data?: unknown } } | null)?.response;
  if (response && typeof response.status === 'number') {
    const data = response.data;
    return httpError(response.status, bodyText(typeof data === 'string' ? data : JSON.stringify(data ?? '')));
  }
  return describeError(error);
}
