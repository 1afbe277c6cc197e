import { ERROR_CODES } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { GitRequestError } from './git-errors.js';

/** Parses a body or query with a contracts schema; a bad one is a 400 that changes nothing. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    throw new GitRequestError(400, ERROR_CODES.validation, `${where}${issue.message}`);
  }
  return parsed.data;
}

/** In the /git scope, GitRequestError keeps its own code and details; anything else goes to the app's handler. */
export function registerGitErrorHandler(scope: FastifyInstance): void {
  scope.setErrorHandler((err, _request, reply) => {
    if (err instanceof GitRequestError) {
      const error = err.details === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, details: err.details };
      return reply.code(err.statusCode).type('application/json; charset=utf-8').send({ error });
    }
    throw err;
  });
}

/** The signed-in user's name; the auth hook guarantees a user on every /git route. */
export function usernameOf(request: { user: { username: string } | null }): string {
  if (!request.user) throw new GitRequestError(401, ERROR_CODES.unauthorized, 'Missing or malformed Bearer token');
  return request.user.username;
}
