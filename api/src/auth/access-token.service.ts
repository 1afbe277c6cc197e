import { ACCESS_TOKEN_ALG, ACCESS_TOKEN_ISSUER, ACCESS_TOKEN_TTL_S, type AuthUser, TokenClaimsSchema } from '@tessera/contracts';
import { jwtVerify, SignJWT } from 'jose';
import type { SigningKeys } from './signing-keys.js';

/** Issues and checks the short-lived access tokens (spec 01 §3: sub, username, role, exp). */
export class AccessTokenService {
  constructor(private readonly keys: SigningKeys) {}

  async issue(user: AuthUser): Promise<string> {
    return new SignJWT({ username: user.username, role: user.role })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: this.keys.kid, typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_S}s`)
      .sign(this.keys.privateKey);
  }

  /**
   * The token's user, or null for anything not signed by our key with EdDSA, expired,
   * from another issuer, or lacking sub/username/role.
   */
  async verify(token: string): Promise<AuthUser | null> {
    try {
      const { payload } = await jwtVerify(token, this.keys.publicKey, {
        algorithms: [ACCESS_TOKEN_ALG],
        issuer: ACCESS_TOKEN_ISSUER,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const claims = TokenClaimsSchema.safeParse(payload);
      if (!claims.success) return null;
      return { id: claims.data.sub, username: claims.data.username, role: claims.data.role };
    } catch {
      return null;
    }
  }
}
