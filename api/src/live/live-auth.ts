import { type ApiTokenScope, type AuthUser, isApiToken, LIVE_CLOSE, LIVE_TEXTS, LIVE_TOKEN_PROTOCOL, liveTokenFromProtocols } from '@tessera/contracts';
import type { ApiTokenGate } from '../api-tokens/api-token-gate.js';
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

/** An authenticated socket's user, and what ends it: its token's epoch and expiry (socket-sessions.ts). */
export interface SocketAuth {
  user: AuthUser;
  epoch: number;
  /** ms since the epoch */
  expiresAt: number;
  /** Opened with a personal API token (issue 21): which one, and its scope (a read token sends no operations). */
  apiToken?: { id: string; scope: ApiTokenScope };
}

/**
 * Same checks as the HTTP auth guard: signature, claims, expiry and the user's token epoch. A
 * refusal carries its close code: 1008 for a missing or bad token (the client refreshes and
 * retries), 4401 with LIVE_TEXTS.sessionEnded for a revoked one (deleted user, epoch moved: the
 * client renews its session or signs out).
 */
export async function authenticateSocket(
  token: string | undefined,
  tokens: AccessTokenService,
  epochs: TokenEpochs,
  apiTokens: ApiTokenGate,
): Promise<SocketAuth | { code: number; reason: string }> {
  if (!token) return { code: LIVE_CLOSE.policyViolation, reason: 'Authentication required' };
  if (isApiToken(token)) {
    // A bad or rate-limited API token is a policy violation: retrying with the same token does not help.
    const checked = await apiTokens.check(token);
    if (!checked.ok) return { code: LIVE_CLOSE.policyViolation, reason: checked.message };
    const { user, tokenId, scope, expiresAt } = checked.token;
    // API tokens outlive password changes (they are revoked on their own): no epoch is compared.
    return { user, epoch: -1, expiresAt, apiToken: { id: tokenId, scope } };
  }
  const verified = await tokens.verify(token);
  if (!verified) return { code: LIVE_CLOSE.policyViolation, reason: 'Invalid or expired access token' };
  const epoch = await epochs.current(verified.user.id);
  if (epoch === null || epoch !== verified.epoch) return { code: LIVE_CLOSE.sessionEnded, reason: LIVE_TEXTS.sessionEnded };
  return { user: verified.user, epoch: verified.epoch, expiresAt: verified.expiresAt };
}
