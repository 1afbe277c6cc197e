import { ERROR_CODES } from '@tessera/contracts';
import type { FastifyReply } from 'fastify';
import { sendError } from '../http/errors.js';
import { SessionNotFoundError, SessionQuotaError, type SessionService } from './session.service.js';

/**
 * A hybrid call naming a session that is full: 429 with the quota's text, sent here (true), before
 * anything runs. A session that is not the user's is no refusal: the call runs without it, as before.
 */
export async function sendSessionQuotaError(sessions: SessionService, reply: FastifyReply, userId: string, sessionId: string): Promise<boolean> {
  try {
    await sessions.checkRoom(userId, sessionId);
    return false;
  } catch (err) {
    if (err instanceof SessionNotFoundError) return false;
    if (err instanceof SessionQuotaError) {
      sendError(reply, 429, ERROR_CODES.tooManyRequests, err.message);
      return true;
    }
    throw err;
  }
}
