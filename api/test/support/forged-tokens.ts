import crypto from 'node:crypto';
import path from 'node:path';
import { ACCESS_TOKEN_ISSUER } from '@tessera/contracts';
import { SignJWT } from 'jose';
import { loadSigningKeys } from '../../src/auth/signing-keys.js';
import type { AppConfig } from '../../src/config.js';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Tokens the api must refuse, each built from a real one or from the api's own key so that
 * exactly one thing is wrong with it.
 */
export async function forgeBadTokens(config: AppConfig, valid: string, user: { id: string; username: string }) {
  const keys = await loadSigningKeys({ keysDir: path.join(config.dataDir, 'keys') });
  const now = Math.floor(Date.now() / 1000);
  const claims = { username: user.username, role: 'admin' };
  const header = { alg: 'EdDSA', kid: keys.kid, typ: 'JWT' } as const;
  const [h, p, s] = valid.split('.');
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));

  const other = crypto.generateKeyPairSync('ed25519');
  const publicDer = keys.publicKey.export({ type: 'spki', format: 'der' });

  return {
    expired: await new SignJWT(claims)
      .setProtectedHeader(header)
      .setSubject(user.id)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 60)
      .sign(keys.privateKey),
    tamperedPayload: `${h}.${b64({ ...payload, role: 'superadmin' })}.${s}`,
    tamperedSubject: `${h}.${b64({ ...payload, sub: crypto.randomUUID() })}.${s}`,
    wrongKey: await new SignJWT(claims)
      .setProtectedHeader(header)
      .setSubject(user.id)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(other.privateKey),
    algNone: `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`,
    // The classic confusion: HMAC keyed with the public key's bytes.
    hs256WithPublicKey: await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: keys.kid, typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(new Uint8Array(publicDer)),
    wrongIssuer: await new SignJWT(claims)
      .setProtectedHeader(header)
      .setSubject(user.id)
      .setIssuer('someone-else')
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(keys.privateKey),
    missingUsername: await new SignJWT({ role: 'admin' })
      .setProtectedHeader(header)
      .setSubject(user.id)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(keys.privateKey),
    unknownRole: await new SignJWT({ username: user.username, role: 'root' })
      .setProtectedHeader(header)
      .setSubject(user.id)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(keys.privateKey),
    garbage: 'not.a.token',
  };
}
