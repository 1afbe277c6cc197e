import { ERROR_CODES } from '@tessera/contracts';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { sendError } from './errors.js';

/** "path: message; path: message", so the user sees every problem of the input at once. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/** Parses an outside input with its contract schema; on failure answers 400 validation_failed and returns undefined. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, reply: FastifyReply): z.infer<S> | undefined {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  void sendError(reply, 400, ERROR_CODES.validation, describeIssues(parsed.error));
  return undefined;
}
