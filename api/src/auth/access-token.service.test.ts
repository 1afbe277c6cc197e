import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ACCESS_TOKEN_TTL_S, decodeTokenClaims } from '@tessera/contracts';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { AccessTokenService } from './access-token.service.js';
import { loadSigningKeys } from './signing-keys.js';

describe('AccessTokenService', () => {
  let dir: string;
  let service: AccessTokenService;
  let other: AccessTokenService;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-token-test-'));
    service = new AccessTokenService(await loadSigningKeys({ keysDir: path.join(dir, 'a') }));
    other = new AccessTokenService(await loadSigningKeys({ keysDir: path.join(dir, 'b') }));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  const user = { id: '8a4c0bb2-55c6-4a5b-9a39-3b0e9b6f7f10', username: 'alice', role: 'user' as const };

  it('issues an EdDSA token with sub, username, role, iat and a 15-minute exp that it verifies', async () => {
    const token = await service.issue(user, 3);
    const header = decodeProtectedHeader(token);
    assert.equal(header.alg, 'EdDSA');
    assert.equal(typeof header.kid, 'string');
    const claims = decodeTokenClaims(token);
    assert.ok(claims);
    assert.equal(claims.sub, user.id);
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    assert.equal(payload.iss, 'tessera-api');
    assert.equal(payload.exp - payload.iat, ACCESS_TOKEN_TTL_S);
    assert.equal(payload.tep, 3);
    assert.deepEqual(await service.verify(token), { user, epoch: 3, expiresAt: payload.exp * 1000 });
  });

  it('does not accept a token signed with another key', async () => {
    assert.equal(await service.verify(await other.issue(user, 0)), null);
  });

  it('does not accept a token without the epoch claim', async () => {
    const keys = await loadSigningKeys({ keysDir: path.join(dir, 'a') });
    const noEpoch = await new SignJWT({ username: 'alice', role: 'user' })
      .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid })
      .setSubject(user.id)
      .setIssuer('tessera-api')
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(keys.privateKey);
    assert.equal(await service.verify(noEpoch), null);
  });

  it('does not accept garbage', async () => {
    for (const bad of ['', 'a.b.c', 'x', `${'a'.repeat(10)}.${'b'.repeat(10)}.`]) {
      assert.equal(await service.verify(bad), null);
    }
  });
});
