import crypto, { type KeyObject } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';

export interface SigningKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Key id (RFC 7638 thumbprint), in every token header and in the JWKS. */
  kid: string;
  /** The public key as served in the JWKS. */
  publicJwk: JWK;
}

export interface SigningKeyOptions {
  keysDir: string;
  privateKeyPem?: string;
  publicKeyPem?: string;
}

const PRIVATE_FILE = 'jwt-ed25519-private.pem';
const PUBLIC_FILE = 'jwt-ed25519-public.pem';

function assertEd25519(key: KeyObject, what: string): void {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`${what} must be an Ed25519 key (got ${key.asymmetricKeyType ?? key.type})`);
  }
}

/**
 * Reads the key pair from disk, generating it on first start. The file is written under a
 * temporary name and linked into place, so two processes starting at once agree on one key.
 */
async function loadOrCreatePrivatePem(keysDir: string): Promise<string> {
  const file = path.join(keysDir, PRIVATE_FILE);
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await fs.mkdir(path.dirname(keysDir), { recursive: true });
  await fs.mkdir(keysDir, { recursive: true, mode: 0o700 });
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const tmp = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`;
  await fs.writeFile(tmp, privateKey, { mode: 0o600, flag: 'wx' });
  try {
    await fs.link(tmp, file);
    // The public half is for operators (e.g. to configure JWT_PUBLIC_KEY elsewhere).
    await fs.writeFile(path.join(keysDir, PUBLIC_FILE), publicKey, { mode: 0o644 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await fs.rm(tmp, { force: true });
  }
  return fs.readFile(file, 'utf8');
}

export async function loadSigningKeys(opts: SigningKeyOptions): Promise<SigningKeys> {
  if (opts.publicKeyPem && !opts.privateKeyPem) {
    throw new Error('JWT_PUBLIC_KEY is set without JWT_PRIVATE_KEY: the api needs the private key to sign tokens');
  }
  const privatePem = opts.privateKeyPem ?? (await loadOrCreatePrivatePem(opts.keysDir));
  const privateKey = crypto.createPrivateKey(privatePem);
  assertEd25519(privateKey, 'JWT_PRIVATE_KEY');
  const derived = crypto.createPublicKey(privateKey);
  if (opts.publicKeyPem) {
    const given = crypto.createPublicKey(opts.publicKeyPem);
    assertEd25519(given, 'JWT_PUBLIC_KEY');
    if (!given.equals(derived)) throw new Error('JWT_PUBLIC_KEY does not belong to JWT_PRIVATE_KEY');
  }
  const jwk = await exportJWK(derived);
  const kid = await calculateJwkThumbprint(jwk);
  return { privateKey, publicKey: derived, kid, publicJwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig' } };
}
