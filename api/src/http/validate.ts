import { ERROR_CODES } from '@tessera/contracts';
import type { z } from 'zod';
import { HttpError } from './http-error.js';

/**
 * The one validation mechanism of the api: every handler passes its input through a
 * contracts schema here. A failure becomes a 400 with the first issue's message.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const message = input === undefined || input === null ? 'Request body is required' : (first?.message ?? 'Invalid input');
  throw new HttpError(400, ERROR_CODES.validation, message, { path: first?.path.map(String) ?? [] });
}
