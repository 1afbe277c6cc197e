import type { User } from '@tessera/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema.js';
import type { AppServices } from '../services.js';
import { toAuthUser, toPublicUser } from '../users/user.mapper.js';
import { setRefreshCookie } from './refresh-cookie.js';

export interface SessionResponse {
  access_token: string;
  user: User;
}

/** After sign-in or sign-up: a new refresh family in the cookie and an access token in the body. */
export async function startSession(
  services: AppServices,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<SessionResponse> {
  const refresh = await services.refreshTokens.startFamily(user.id);
  setRefreshCookie(request, reply, refresh.token, services.config.cookieSecure);
  return { access_token: await services.accessTokens.issue(toAuthUser(user), user.token_epoch), user: toPublicUser(user) };
}
