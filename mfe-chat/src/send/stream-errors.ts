import { STREAM_TIMEOUT_MS } from '@tessera/contracts';

/** Spec 02 §8 texts of the streaming path. */
export const STREAM_TEXTS = {
  noBody: 'No response body',
  readError: 'Stream read error',
  failed: 'Stream failed',
  timedOut: `Stream timed out after ${STREAM_TIMEOUT_MS / 60_000} minutes`,
} as const;
export const failedToStartStream = (reason: string) => `Failed to start stream: ${reason}`;
export const httpError = (status: number, body: string) => `HTTP ${status}: ${body}`;
/** How an error shows in its message (spec 02 §8: "shown as Error: ... in the message"). */
export const errorMessageText = (reason: string) => `Error: ${reason}`;

/** A failure whose text is already the one to show. */
export class StreamError extends Error {}

/** The body of a failed reply as text: the service's `{error: {message}}` when it sent one, else the raw text. */
export function bodyText(raw: string): string {
  try {
    const parsed = JSON.parse(raw) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'object' && typeof parsed.error?.message === 'string') return parsed.error.message;
    if (typeof parsed.error === 'string') return parsed.error;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: the text as sent.
  }
  return raw.trim();
}
