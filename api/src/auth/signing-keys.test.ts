import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadSigningKeys } from './signing-keys.js';

describe('loadSigningKeys', () => {
  let dir: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-keys-test-'));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('generates an Ed25519 pair on first start, private key file mode 0600, and reuses it', async () => {
    const keysDir = path.join(dir, 'data', 'keys');
    const first = await loadSigningKeys({ keysDir });
    assert.equal(first.privateKey.asymmetricKeyType, 'ed25519');
    const files = await fs.readdir(keysDir);
    const privateFile = files.find((f) => f.includes('private'));
    assert.ok(privateFile, files.join(','));
    const stat = await fs.stat(path.join(keysDir, privateFile));
    assert.equal(stat.mode & 0o777, 0o600);
    const second = await loadSigningKeys({ keysDir });
    assert.equal(second.kid, first.kid);
    assert.equal(first.publicJwk.d, undefined);
  });

  it('agrees on one key when several start at once', async () => {
    const keysDir = path.join(dir, 'race', 'keys');
    const all = await Promise.all(Array.from({ length: 5 }, () => loadSigningKeys({ keysDir })));
    assert.equal(new Set(all.map((k) => k.kid)).size, 1);
    assert.equal((await fs.readdir(keysDir)).filter((f) => f.endsWith('.tmp')).length, 0);
  });

  it('uses keys from the environment without writing any file', async () => {
    const pair = crypto.generateKeyPairSync('ed25519');
    const privateKeyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const publicKeyPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const keysDir = path.join(dir, 'env', 'keys');
    const keys = await loadSigningKeys({ keysDir, privateKeyPem, publicKeyPem });
    assert.ok(keys.publicKey.equals(pair.publicKey));
    await assert.rejects(fs.stat(keysDir), { code: 'ENOENT' });
  });

  it('refuses a public key that does not match, a non-Ed25519 key, and a public key alone', async () => {
    const a = crypto.generateKeyPairSync('ed25519');
    const b = crypto.generateKeyPairSync('ed25519');
    const pem = (k: crypto.KeyObject, type: 'pkcs8' | 'spki') => k.export({ type, format: 'pem' }).toString();
    const keysDir = path.join(dir, 'bad', 'keys');
    await assert.rejects(
      loadSigningKeys({ keysDir, privateKeyPem: pem(a.privateKey, 'pkcs8'), publicKeyPem: pem(b.publicKey, 'spki') }),
      /does not belong/,
    );
    const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await assert.rejects(loadSigningKeys({ keysDir, privateKeyPem: pem(ec.privateKey, 'pkcs8') }), /Ed25519/);
    await assert.rejects(loadSigningKeys({ keysDir, publicKeyPem: pem(a.publicKey, 'spki') }), /JWT_PRIVATE_KEY/);
  });
});
