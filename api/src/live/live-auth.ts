import { type AuthUser, LIVE_TOKEN_PROTOCOL, liveTokenFromProtocols } from '@tessera/contracts';
import type { IncomingMessage } from 'node:http';
import type { AccessTokenService } from '../auth/access-token.service.js';
import type { TokenEpochs } from '../auth/token-epochs.js';

/**
 * The access token of a socket: `?token=` or the Sec-WebSocket-Protocol pair
 * `tessera.bearer, <token>` (browsers cannot set an Authorization header on a WebSocket).
 */
export function socketToken(req: IncomingMessage, queryToken: string | undefined): string | undefined {
  return queryToken || liveTokenFromProtocols(req.headers['sec-websocket-protocol']);
}

/** Picks the marker protocol, so the token itself is never echoed back. */
export function selectProtocol(protocols: Set<string>): string | false {
  return protocols.has(LIVE_TOKEN_PROTOCOL) ? LIVE_TOKEN_PROTOCOL : false;
}

/** Same checks as the HTTP auth guard: signature, claims, expiry and the user's token epoch. */
export async function authenticateSocket(
  token: string | undefined,
  tokens: AccessTokenService,
  epochs: TokenEpochs,
): Promise<{ user: AuthUser } | { reason: string }> {
  if (!token) return { reason: 'Authentication required' };
  const verified = await tokens.verify(token);
  if (!verified) return { reason: 'Invalid or expired access token' };
  const epoch = await epochs.current(verified.user.id);
  if (epoch === null) return { reason: 'Account no longer exists' };
  if (epoch !== verified.epoch) return { reason: 'Session ended. Please sign in again.' };
  return { user: verified.user };
}
