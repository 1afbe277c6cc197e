import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCESS_TOKEN_ISSUER, JWKS_PATH } from '@tessera/contracts';
import { type CryptoKey, type JWTPayload, SignJWT, exportJWK, generateKeyPair } from 'jose';

export interface TestIssuer {
  /** Base URL to use as API_URL: it serves /api/v1/auth/jwks.json like the api. */
  apiUrl: string;
  /** Signs a token with the served key (or another key), as the api would. */
  sign(claims: JWTPayload, options?: { key?: CryptoKey; kid?: string; issuer?: string; expiresIn?: string | number }): Promise<string>;
  /** A second Ed25519 key whose public half is NOT served. */
  strangerKey: CryptoKey;
  kid: string;
  jwksRequests(): number;
  close(): Promise<void>;
}

/** A tiny real JWKS server on loopback with a fresh Ed25519 key pair, standing in for the api. */
export async function startTestIssuer(): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const stranger = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const kid = 'test-key-1';
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  let requests = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === JWKS_PATH) {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    kid,
    strangerKey: stranger.privateKey,
    jwksRequests: () => requests,
    async sign(claims, options = {}) {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', kid: options.kid ?? kid })
        .setIssuer(options.issuer ?? ACCESS_TOKEN_ISSUER)
        .setIssuedAt();
      if (claims.exp === undefined) jwt.setExpirationTime(options.expiresIn ?? '15m');
      return jwt.sign(options.key ?? privateKey);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
