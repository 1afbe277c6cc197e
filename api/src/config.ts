import path from 'node:path';
import { API_PORT } from '@tessera/contracts';

export interface AppConfig {
  /** Root of persisted state: PGlite in dataDir/api, JWT keys in dataDir/keys. */
  dataDir: string;
  /** postgres://... switches from the embedded PGlite to PostgreSQL. */
  databaseUrl?: string;
  host: string;
  port: number;
  /** PEM keys from the environment; when absent a key pair is generated into dataDir/keys. */
  jwtPrivateKeyPem?: string;
  jwtPublicKeyPem?: string;
  /** undefined: Secure only when the request came over https. */
  cookieSecure?: boolean;
  logLevel: string;
}

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`API_PORT must be a port number, got "${raw}"`);
  return port;
}

function parseBool(name: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

/** Reads the environment once into a typed config (see the README's env table). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // PEM keys in env files often carry literal "\n" sequences.
  const pem = (v: string | undefined) => (v ? v.replace(/\\n/g, '\n') : undefined);
  return {
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    host: env.HOST || '127.0.0.1',
    port: parsePort(env.API_PORT, API_PORT),
    jwtPrivateKeyPem: pem(env.JWT_PRIVATE_KEY),
    jwtPublicKeyPem: pem(env.JWT_PUBLIC_KEY),
    cookieSecure: parseBool('COOKIE_SECURE', env.COOKIE_SECURE),
    logLevel: env.LOG_LEVEL || 'info',
  };
}
