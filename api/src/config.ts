import path from 'node:path';
import { API_PORT, LIVE_HEARTBEAT_MS, LIVE_OUTBOUND_MAX_BYTES } from '@tessera/contracts';
import { ConfigError, parseBool, parseDatabaseUrl, parseLogLevel, parsePort } from '@tessera/server-kit';

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
  /**
   * redis:// or rediss://: the live sockets' presence and fan-out go through Redis, so several
   * api processes (on one database) serve the same sheets. Unset: in this process.
   */
  redisUrl?: string;
  /** Live sockets' ping interval; also how often presence entries in Redis are renewed. */
  liveHeartbeatMs?: number;
  /** Outbound backpressure: unread bytes a live socket may hold before it is closed (4408) to resync. */
  liveOutboundMaxBytes?: number;
  /** Operations waiting per sheet (default LIVE_SHEET_QUEUE_MAX_OPS / _BYTES); no env var: tests lower them. */
  liveSheetQueueMaxOps?: number;
  liveSheetQueueMaxBytes?: number;
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
    redisUrl: parseRedisUrl(env.REDIS_URL),
    liveHeartbeatMs: parseHeartbeat(env.LIVE_HEARTBEAT_MS),
    liveOutboundMaxBytes: parseOutboundMax(env.LIVE_OUTBOUND_MAX_BYTES),
  };
}

function parseRedisUrl(raw: string | undefined): string | undefined {
  const url = raw?.trim() || undefined;
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got "${url}"`);
  }
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || !parsed.hostname) {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL with a host, got "${url}"`);
  }
  return url;
}

/** Tests shorten it; below 100 ms pings would be noise, above 10 min dead sockets linger. */
function parseHeartbeat(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return LIVE_HEARTBEAT_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100 || ms > 600_000) {
    throw new ConfigError(`LIVE_HEARTBEAT_MS must be a whole number of milliseconds from 100 to 600000, got "${raw}"`);
  }
  return ms;
}

/** At least 64 KiB (a few frames), at most 1 GiB: beyond, one slow client could hold the api's memory. */
function parseOutboundMax(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return LIVE_OUTBOUND_MAX_BYTES;
  const bytes = Number(raw);
  if (!Number.isInteger(bytes) || bytes < 65_536 || bytes > 1_073_741_824) {
    throw new ConfigError(`LIVE_OUTBOUND_MAX_BYTES must be a whole number of bytes from 65536 to 1073741824, got "${raw}"`);
  }
  return bytes;
}
