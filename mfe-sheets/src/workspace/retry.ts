import { SHEET_SERVICE_RETRY } from '@tessera/contracts';

export type Wait = (ms: number) => Promise<void>;

export const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RetryOptions {
  /** Waits between attempts; tests pass an instant one that records the delays. */
  wait?: Wait;
  attempts?: number;
  delaysMs?: readonly number[];
}

/** What the shell's axios client throws (the remote does not bundle axios to ask it). */
export interface RequestError {
  isAxiosError: true;
  message: string;
  response?: { status: number; statusText: string; data: unknown };
}

export const isRequestError = (error: unknown): error is RequestError =>
  typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true;

/** Network errors (no reply) and 5xx replies may pass on a new attempt; a 4xx says the request itself is wrong. */
export function isRetryable(error: unknown): boolean {
  if (!isRequestError(error)) return false;
  const status = error.response?.status;
  return status === undefined || status >= 500;
}

/**
 * The sheet service's retry (spec 01 §9): up to 3 attempts, waiting 1 s then 2 s, on
 * network errors and 5xx only, never on 4xx.
 */
export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { wait = realWait, attempts = SHEET_SERVICE_RETRY.attempts, delaysMs = SHEET_SERVICE_RETRY.delaysMs } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      await wait(delaysMs[attempt - 1] ?? delaysMs[delaysMs.length - 1] ?? 0);
    }
  }
}
