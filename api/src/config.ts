import path from 'node:path';
import { API_PORT } from '@tessera/contracts';
import { parseBool, parseDatabaseUrl, parseLogLevel, parsePort } from '@tessera/server-kit';

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

/** Reads the environment once into a typed config (see the README's env table). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // PEM keys in env files often carry literal "\n" sequences.
  const pem = (v: string | undefined) => (v ? v.replace(/\\n/g, '\n') : undefined);
  return {
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: parseDatabaseUrl('DATABASE_URL', env.DATABASE_URL),
    host: env.HOST || '127.0.0.1',
    port: parsePort('API_PORT', env.API_PORT, API_PORT),
    jwtPrivateKeyPem: pem(env.JWT_PRIVATE_KEY),
    jwtPublicKeyPem: pem(env.JWT_PUBLIC_KEY),
    cookieSecure: parseBool('COOKIE_SECURE', env.COOKIE_SECURE),
    logLevel: parseLogLevel(env.LOG_LEVEL),
  };
}
