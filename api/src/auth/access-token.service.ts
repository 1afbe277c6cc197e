import {
  ACCESS_TOKEN_ALG,
  ACCESS_TOKEN_ISSUER,
  ACCESS_TOKEN_TTL_S,
  type AuthUser,
  TOKEN_EPOCH_CLAIM,
  TokenClaimsSchema,
} from '@tessera/contracts';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { SigningKeys } from './signing-keys.js';

/** A token that passed the signature and claim checks; the guard still compares its epoch. */
export interface VerifiedToken {
  user: AuthUser;
  /** The user's token epoch when the token was issued (claim tep). */
  epoch: number;
  /** Its exp, in ms since the epoch: a live socket opened with it closes then (live/socket-sessions.ts). */
  expiresAt: number;
}

const EpochClaimSchema = z.object({ [TOKEN_EPOCH_CLAIM]: z.number().int().nonnegative() });

/** Issues and checks the short-lived access tokens (spec 01 §3: sub, username, role, exp; plus tep). */
export class AccessTokenService {
  constructor(private readonly keys: SigningKeys) {}

  async issue(user: AuthUser, epoch: number): Promise<string> {
    return new SignJWT({ username: user.username, role: user.role, [TOKEN_EPOCH_CLAIM]: epoch })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: this.keys.kid, typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_S}s`)
      .sign(this.keys.privateKey);
  }

  /**
   * The token's user and epoch, or null for anything not signed by our key with EdDSA,
   * expired, from another issuer, or lacking sub/username/role/tep.
   */
  async verify(token: string): Promise<VerifiedToken | null> {
    try {
      const { payload } = await jwtVerify(token, this.keys.publicKey, {
        algorithms: [ACCESS_TOKEN_ALG],
        issuer: ACCESS_TOKEN_ISSUER,
        requiredClaims: ['sub', 'exp', 'iat', TOKEN_EPOCH_CLAIM],
      });
      const claims = TokenClaimsSchema.safeParse(payload);
      const epoch = EpochClaimSchema.safeParse(payload);
      if (!claims.success || !epoch.success) return null;
      return {
        user: { id: claims.data.sub, username: claims.data.username, role: claims.data.role },
        epoch: epoch.data[TOKEN_EPOCH_CLAIM],
        expiresAt: (payload.exp ?? 0) * 1000,
      };
    } catch {
      return null;
    }
  }
}
