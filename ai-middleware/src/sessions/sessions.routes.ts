import {
  CHAT_MAX_MESSAGES,
  DeleteSessionBodySchema,
  type DeleteSessionReply,
  ERROR_CODES,
  SessionActionBodySchema,
  type SessionList,
  SessionQuerySchema,
  type SessionReply,
} from '@tessera/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from '../http/errors.js';
import { SessionNotFoundError, SessionQuotaError, type SessionService } from './session.service.js';
import { parseInput } from '../http/validate-input.js';

/** The token's subject: every session call is scoped to it (a user_id sent by the client is ignored). */
export function tokenUserId(request: FastifyRequest): string {
  if (!request.user) throw new Error('a protected route ran without a verified user');
  return request.user.id;
}

/**
 * GET/POST/DELETE /vertex/user-sessions (spec 02 §7). The spec's clients send a locally
 * generated `user_id`; it is accepted and ignored, because the token says who the user is
 * (DESIGN.md § AI). Another user's session answers 404, as one that does not exist.
 */
export function registerSessionRoutes(app: FastifyInstance, sessions: SessionService): void {
  app.get('/vertex/user-sessions', async (request, reply) => {
    if (!parseInput(SessionQuerySchema, request.query, reply)) return reply;
    const body: SessionList = { sessions: await sessions.list(tokenUserId(request)) };
    return body;
  });

  app.post('/vertex/user-sessions', async (request, reply) => {
    const body = parseInput(SessionActionBodySchema, request.body, reply);
    if (!body) return reply;
    const userId = tokenUserId(request);
    try {
      if (body.action === 'create') {
        const session = await sessions.create(userId, body);
        return reply.code(201).send({ session } satisfies SessionReply);
      }
      const session = await sessions.switchTo(userId, body.session_id);
      const messages = await sessions.lastMessages(userId, body.session_id, CHAT_MAX_MESSAGES, { withFigures: true });
      return { session, messages } satisfies SessionReply;
    } catch (err) {
      if (err instanceof SessionNotFoundError) return sendError(reply, 404, ERROR_CODES.notFound, err.message);
      if (err instanceof SessionQuotaError) return sendError(reply, 429, ERROR_CODES.tooManyRequests, err.message);
      throw err;
    }
  });

  // The session id may come in the query (DELETE ?session_id=) or in a JSON body.
  app.delete('/vertex/user-sessions', async (request, reply) => {
    const input = { ...(request.body && typeof request.body === 'object' ? request.body : {}), ...(request.query as object) };
    const body = parseInput(DeleteSessionBodySchema, input, reply);
    if (!body) return reply;
    if (!(await sessions.remove(tokenUserId(request), body.session_id))) {
      return sendError(reply, 404, ERROR_CODES.notFound, new SessionNotFoundError().message);
    }
    return { success: true, session_id: body.session_id } satisfies DeleteSessionReply;
  });
}
