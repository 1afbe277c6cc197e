import axios, { type AxiosInstance } from 'axios';
import { ErrorBodySchema } from '../errors/error-body.schema.js';

// Front ends type their clients through the contracts, so they need no axios of their own.
export type { AxiosInstance, AxiosResponse } from 'axios';

/**
 * A client for the calls made before or without a session (sign-in, sign-up,
 * auth status, health). Credentials are sent so the refresh cookie that sign-in
 * sets is kept.
 */
export function createOpenClient(baseURL: string): AxiosInstance {
  return axios.create({ baseURL, withCredentials: true });
}

/** HTTP status of a failed request, or undefined when no reply came. */
export function errorStatus(error: unknown): number | undefined {
  return axios.isAxiosError(error) ? error.response?.status : undefined;
}

/** The server's `error.message` when a request failed with a 4xx carrying an error body. */
export function clientErrorMessage(error: unknown): string | null {
  const status = errorStatus(error);
  if (status === undefined || status < 400 || status > 499 || !axios.isAxiosError(error)) return null;
  const body = ErrorBodySchema.safeParse(error.response?.data);
  return body.success && body.data.error.message ? body.data.error.message : null;
}
