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
  CREATABLE_ROLES,
  SSO_NAME_MAX_LENGTH,
} from '@tessera/contracts';
import { ConfigError, parseBool, parseDatabaseUrl, parseLogLevel, parsePort, parseTrustProxy, parseWholeNumber } from '@tessera/server-kit';
import { GROUP_FILL_OPS, GROUP_MAX_OPS, GROUP_MAX_WAIT_MS, GROUP_WINDOW_MS } from './live/operation-batcher.js';
import { LIVE_WARMUP_MS_DEFAULT } from './live/live-warmup.js';
import { FORMULA_EVALUATION_MAX_CELLS } from './export/formula-values.js';

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
  /** Most held cells whose formulas an XLSX export computes (formula-values.ts); default FORMULA_EVALUATION_MAX_CELLS, 0: never. */
  exportFormulaMaxCells?: number;
  /** Outbound backpressure: unread bytes a live socket may hold before it is closed (4408) to resync. */
  liveOutboundMaxBytes?: number;
  /** How often a sheet's live group commits may start, in ms (GROUP_WINDOW_MS by default; 0: as soon as the previous one is done). */
  liveGroupWindowMs?: number;
  /** How long past the window a small live group waits for more, counted from the previous group's start (GROUP_MAX_WAIT_MS; up to the window: never). */
  liveGroupMaxWaitMs?: number;
  /** A live group smaller than this waits for more, up to liveGroupMaxWaitMs (GROUP_FILL_OPS; LIVE_GROUP_FILL_OPS). */
  liveGroupFillOps?: number;
  /** For how long after it listens the api rehearses live group commits in the background (live-warmup.ts); 0 or absent (apps built in tests): never. LIVE_WARMUP_MS, default LIVE_WARMUP_MS_DEFAULT. */
  liveWarmupMs?: number;
  /** Operations waiting per sheet (default LIVE_SHEET_QUEUE_MAX_OPS / _BYTES); no env var: tests lower them. */
  liveSheetQueueMaxOps?: number;
  liveSheetQueueMaxBytes?: number;
  /** What members have on root items nobody shared otherwise (issue 18); default editor. */
  workspaceDefaultAccess?: WorkspaceDefaultAccess;
  /** Days a deleted item stays in the trash before it is purged; default 30. */
  trashRetentionDays?: number;
  /** Requests one personal API token may make per minute; default API_TOKEN_RATE_LIMIT_DEFAULT. */
  apiTokenRateLimit?: number;
  /** Single sign-on through an OpenID Connect provider (issue 21); undefined: off. */
  oidc?: OidcConfig;
  /** PASSWORD_LOGIN: false hides and refuses password sign-in (signup of the first admin still works). Default true. */
  passwordLogin?: boolean;
}

export type OidcRole = (typeof CREATABLE_ROLES)[number];

export interface OidcConfig {
  /** The issuer's URL exactly as the provider states it in its discovery document. */
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone, no client authentication). */
  clientSecret?: string;
  /** The button's text: 'Sign in with <name>'. */
  name: string;
  /** Always includes openid. */
  scopes: string[];
  /** A claim (a dotted path for nested ones: realm_access.roles) holding a string or strings. */
  roleClaim?: string;
  /** Claim value → Tessera role; when several match, admin wins. */
  roleMap?: Array<{ value: string; role: OidcRole }>;
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
    // Up to the grid's own bound: past it the grid shows no values either.
    exportFormulaMaxCells: parseWholeNumber('EXPORT_FORMULA_MAX_CELLS', env.EXPORT_FORMULA_MAX_CELLS, FORMULA_EVALUATION_MAX_CELLS, 0, FORMULA_EVALUATION_MAX_CELLS),
    // At least 64 KiB (a few frames), at most 1 GiB: beyond, one slow client could hold the api's memory.
    liveOutboundMaxBytes: parseWholeNumber('LIVE_OUTBOUND_MAX_BYTES', env.LIVE_OUTBOUND_MAX_BYTES, LIVE_OUTBOUND_MAX_BYTES, 65_536, 1_073_741_824),
    // At most a second: an operation waits up to this long for its group.
    liveGroupWindowMs: parseWholeNumber('LIVE_GROUP_WINDOW_MS', env.LIVE_GROUP_WINDOW_MS, GROUP_WINDOW_MS, 0, 1000),
    liveGroupMaxWaitMs: parseWholeNumber('LIVE_GROUP_MAX_WAIT_MS', env.LIVE_GROUP_MAX_WAIT_MS, GROUP_MAX_WAIT_MS, 0, 1000),
    // Up to a whole group (GROUP_MAX_OPS): with LIVE_GROUP_MAX_WAIT_MS, what a slowly edited sheet trades latency for CPU with.
    liveGroupFillOps: parseWholeNumber('LIVE_GROUP_FILL_OPS', env.LIVE_GROUP_FILL_OPS, GROUP_FILL_OPS, 1, GROUP_MAX_OPS),
    // At most 10 s of a start's CPU.
    liveWarmupMs: parseWholeNumber('LIVE_WARMUP_MS', env.LIVE_WARMUP_MS, LIVE_WARMUP_MS_DEFAULT, 0, 10_000),
    workspaceDefaultAccess: parseWorkspaceDefaultAccess(env.WORKSPACE_DEFAULT_ACCESS),
    // Up to ten years: a team that wants to keep everything says so.
    trashRetentionDays: parseWholeNumber('TRASH_RETENTION_DAYS', env.TRASH_RETENTION_DAYS, DEFAULT_TRASH_RETENTION_DAYS, 1, 3650),
    // Up to 100 a second: beyond, one script could take the api from everyone else.
    apiTokenRateLimit: parseWholeNumber('API_TOKEN_RATE_LIMIT', env.API_TOKEN_RATE_LIMIT, API_TOKEN_RATE_LIMIT_DEFAULT, 1, 6000),
    ...parseSignIn(env),
  };
}

const OIDC_VARS = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_NAME', 'OIDC_SCOPES', 'OIDC_ROLE_CLAIM', 'OIDC_ROLE_MAP'] as const;
/** RFC 6749 §3.3: a scope token is printable ASCII without space, '"' or '\\'. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const DEFAULT_OIDC_SCOPES = ['openid', 'profile', 'email'];

/** OIDC_* and PASSWORD_LOGIN together: a half-configured sign-in stops the api at start. */
function parseSignIn(env: NodeJS.ProcessEnv): { oidc?: OidcConfig; passwordLogin: boolean } {
  const passwordLogin = parseBool('PASSWORD_LOGIN', env.PASSWORD_LOGIN) ?? true;
  const issuerRaw = env.OIDC_ISSUER?.trim();
  if (!issuerRaw) {
    const stray = OIDC_VARS.filter((name) => env[name]?.trim());
    if (stray.length > 0) {
      throw new ConfigError(`${stray.join(', ')} ${stray.length === 1 ? 'is' : 'are'} set but OIDC_ISSUER is not: set OIDC_ISSUER to turn single sign-on on, or unset them`);
    }
    if (!passwordLogin) throw new ConfigError('PASSWORD_LOGIN=false needs single sign-on (OIDC_ISSUER): otherwise nobody could sign in');
    return { passwordLogin };
  }
  const issuer = parseIssuer(issuerRaw);
  const clientId = env.OIDC_CLIENT_ID?.trim();
  if (!clientId) throw new ConfigError('OIDC_CLIENT_ID is required with OIDC_ISSUER: the client id Tessera is registered under at the provider');
  const name = env.OIDC_NAME?.trim() || 'SSO';
  if (name.length > SSO_NAME_MAX_LENGTH) {
    throw new ConfigError(`OIDC_NAME is the sign-in button's text and cannot exceed ${SSO_NAME_MAX_LENGTH} characters, got ${name.length}`);
  }
  const scopes = parseScopes(env.OIDC_SCOPES);
  const roleClaim = env.OIDC_ROLE_CLAIM?.trim() || undefined;
  const roleMapRaw = env.OIDC_ROLE_MAP?.trim() || undefined;
  if (roleClaim && !roleMapRaw) throw new ConfigError('OIDC_ROLE_CLAIM is set without OIDC_ROLE_MAP: say which claim values give which role, e.g. OIDC_ROLE_MAP=tessera-admins=admin');
  if (roleMapRaw && !roleClaim) throw new ConfigError('OIDC_ROLE_MAP is set without OIDC_ROLE_CLAIM: name the claim holding the values, e.g. OIDC_ROLE_CLAIM=groups');
  if (roleClaim && !/^[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*$/.test(roleClaim)) {
    throw new ConfigError(`OIDC_ROLE_CLAIM must be a claim name or a dotted path (realm_access.roles), got "${roleClaim}"`);
  }
  return {
    passwordLogin,
    oidc: {
      issuer,
      clientId,
      clientSecret: env.OIDC_CLIENT_SECRET?.trim() || undefined,
      name,
      scopes,
      ...(roleClaim ? { roleClaim, roleMap: parseRoleMap(roleMapRaw as string) } : {}),
    },
  };
}

/** https only, but http on a loopback host (a provider on the same machine, tests). */
function parseIssuer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`OIDC_ISSUER must be the provider's issuer URL (https://...), got "${raw}"`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigError(`OIDC_ISSUER must be an https:// URL (http:// only on localhost), got "${raw}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`OIDC_ISSUER must be a plain issuer URL without query, fragment or credentials, got "${raw}"`);
  }
  return raw;
}

function parseScopes(raw: string | undefined): string[] {
  if (!raw?.trim()) return DEFAULT_OIDC_SCOPES;
  const scopes = [...new Set(raw.split(/[\s,]+/).filter(Boolean))];
  const bad = scopes.find((s) => !SCOPE_TOKEN.test(s));
  if (bad !== undefined) throw new ConfigError(`OIDC_SCOPES must be scope names separated by spaces or commas; "${bad}" is not one`);
  if (!scopes.includes('openid')) throw new ConfigError(`OIDC_SCOPES must include openid (sign-in needs an ID token), got "${raw}"`);
  return scopes;
}

/** 'value=role,value=role': a claim value, '=', a Tessera role; the value may itself contain '='s but not commas. */
function parseRoleMap(raw: string): Array<{ value: string; role: OidcRole }> {
  const entries: Array<{ value: string; role: OidcRole }> = [];
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const at = part.lastIndexOf('=');
    const value = at > 0 ? part.slice(0, at).trim() : '';
    const role = at > 0 ? part.slice(at + 1).trim().toLowerCase() : '';
    if (!value || !role) throw new ConfigError(`OIDC_ROLE_MAP must be value=role pairs separated by commas (tessera-admins=admin,staff=user); "${part}" is not one`);
    if (!(CREATABLE_ROLES as readonly string[]).includes(role)) {
      throw new ConfigError(`OIDC_ROLE_MAP roles must be one of ${CREATABLE_ROLES.join(', ')}; "${part}" gives "${role}"`);
    }
    if (entries.some((e) => e.value === value)) throw new ConfigError(`OIDC_ROLE_MAP names "${value}" twice`);
    entries.push({ value, role: role as OidcRole });
  }
  if (entries.length === 0) throw new ConfigError('OIDC_ROLE_MAP must name at least one value=role pair');
  return entries;
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
