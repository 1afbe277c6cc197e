import path from 'node:path';
import {
  API_PORT,
  API_TOKEN_RATE_LIMIT_DEFAULT,
  DEFAULT_TRASH_RETENTION_DAYS,
  DEFAULT_WORKSPACE_ACCESS,
  WORKSPACE_DEFAULT_LEVELS,
  type WorkspaceDefaultAccess,
  IMPORT_MAX_EXPANDED_MB_DEFAULT,
  IMPORT_MAX_EXPANDED_MB_MAX,
  IMPORT_MAX_EXPANDED_MB_MIN,
  LIVE_HEARTBEAT_MS,
  LIVE_OUTBOUND_MAX_BYTES,
  SHEET_MAX_CELLS_DEFAULT,
  SHEET_MAX_CELLS_MAX,
  SHEET_MAX_CELLS_MIN,
} from '@tessera/contracts';
import { ConfigError, parseBool, parseDatabaseUrl, parseLogLevel, parsePort, parseTrustProxy, parseWholeNumber } from '@tessera/server-kit';

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
  /**
   * Whose X-Forwarded-For (and -Proto, -Host) is believed: addresses, CIDRs or proxy-addr's
   * names (loopback, linklocal, uniquelocal); [] believes nobody. Unset: loopback only.
   */
  trustProxy?: string[];
  /** Most cells (rows × columns) one sheet may have; default SHEET_MAX_CELLS_DEFAULT. */
  sheetMaxCells?: number;
  /** Most megabytes an .xlsx upload's zip parts may inflate to, together; default IMPORT_MAX_EXPANDED_MB_DEFAULT. */
  importMaxExpandedMb?: number;
  /** Outbound backpressure: unread bytes a live socket may hold before it is closed (4408) to resync. */
  liveOutboundMaxBytes?: number;
  /** Operations waiting per sheet (default LIVE_SHEET_QUEUE_MAX_OPS / _BYTES); no env var: tests lower them. */
  liveSheetQueueMaxOps?: number;
  liveSheetQueueMaxBytes?: number;
  /** What members have on root items nobody shared otherwise (issue 18); default editor. */
  workspaceDefaultAccess?: WorkspaceDefaultAccess;
  /** Days a deleted item stays in the trash before it is purged; default 30. */
  trashRetentionDays?: number;
  /** Requests one personal API token may make per minute; default API_TOKEN_RATE_LIMIT_DEFAULT. */
  apiTokenRateLimit?: number;
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
    trustProxy: parseTrustProxy('TRUST_PROXY', env.TRUST_PROXY, DEFAULT_TRUST_PROXY),
    sheetMaxCells: parseWholeNumber('SHEET_MAX_CELLS', env.SHEET_MAX_CELLS, SHEET_MAX_CELLS_DEFAULT, SHEET_MAX_CELLS_MIN, SHEET_MAX_CELLS_MAX),
    importMaxExpandedMb: parseWholeNumber(
      'IMPORT_MAX_EXPANDED_MB',
      env.IMPORT_MAX_EXPANDED_MB,
      IMPORT_MAX_EXPANDED_MB_DEFAULT,
      IMPORT_MAX_EXPANDED_MB_MIN,
      IMPORT_MAX_EXPANDED_MB_MAX,
    ),
    // At least 64 KiB (a few frames), at most 1 GiB: beyond, one slow client could hold the api's memory.
    liveOutboundMaxBytes: parseWholeNumber('LIVE_OUTBOUND_MAX_BYTES', env.LIVE_OUTBOUND_MAX_BYTES, LIVE_OUTBOUND_MAX_BYTES, 65_536, 1_073_741_824),
    workspaceDefaultAccess: parseWorkspaceDefaultAccess(env.WORKSPACE_DEFAULT_ACCESS),
    // Up to ten years: a team that wants to keep everything says so.
    trashRetentionDays: parseWholeNumber('TRASH_RETENTION_DAYS', env.TRASH_RETENTION_DAYS, DEFAULT_TRASH_RETENTION_DAYS, 1, 3650),
    // Up to 100 a second: beyond, one script could take the api from everyone else.
    apiTokenRateLimit: parseWholeNumber('API_TOKEN_RATE_LIMIT', env.API_TOKEN_RATE_LIMIT, API_TOKEN_RATE_LIMIT_DEFAULT, 1, 6000),
  };
}

/** The shell server on the same host is the default proxy (npm start). */
export const DEFAULT_TRUST_PROXY = ['loopback'];

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

function parseWorkspaceDefaultAccess(raw: string | undefined): WorkspaceDefaultAccess {
  const value = raw?.trim().toLowerCase();
  if (!value) return DEFAULT_WORKSPACE_ACCESS;
  if (!(WORKSPACE_DEFAULT_LEVELS as readonly string[]).includes(value)) {
    throw new ConfigError(`WORKSPACE_DEFAULT_ACCESS must be one of ${WORKSPACE_DEFAULT_LEVELS.join(', ')}, got "${raw}"`);
  }
  return value as WorkspaceDefaultAccess;
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
