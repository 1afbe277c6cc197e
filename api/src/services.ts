import type { Kysely } from 'kysely';
import type { AccessTokenService } from './auth/access-token.service.js';
import type { LoginRateLimit } from './auth/login-rate-limit.js';
import type { PasswordService } from './auth/password.service.js';
import type { RefreshTokenService } from './auth/refresh-token.service.js';
import type { SigningKeys } from './auth/signing-keys.js';
import type { TokenEpochs } from './auth/token-epochs.js';
import type { AppConfig } from './config.js';
import type { Database } from './db/schema.js';
import type { UsersRepository } from './users/users.repository.js';
import type { SheetsService } from './sheets/sheets.service.js';
import type { GroupsService } from './groups/groups.service.js';
import type { LiveBackend } from './live/live-backend.js';
import type { SocketSessions } from './live/socket-sessions.js';
import type { AccessService } from './access/access.service.js';
import type { AccessChanges } from './access/access-changes.js';
import type { ActivityLog } from './activity/activity-log.js';
import type { TrashService } from './trash/trash.service.js';
import type { ApiTokenService } from './api-tokens/api-token.service.js';
import type { ApiTokenGate } from './api-tokens/api-token-gate.js';
import type { OidcSignIn } from './oidc/oidc-sign-in.js';
import type { TransferSlots } from './transfers/transfer-slots.js';

/** What route plugins receive: built once per app in buildApp. */
export interface AppServices {
  config: AppConfig;
  db: Kysely<Database>;
  keys: SigningKeys;
  accessTokens: AccessTokenService;
  refreshTokens: RefreshTokenService;
  passwords: PasswordService;
  users: UsersRepository;
  sheets: SheetsService;
  groups: GroupsService;
  /** Who may do what with each sheet and group (issue 18): every route and socket asks here. */
  access: AccessService;
  /** Sharing changes, told to every api process (open sockets review their level). */
  accessChanges: AccessChanges;
  /** Every destructive or access change, for admins. */
  activity: ActivityLog;
  trash: TrashService;
  /** Each user's current token epoch, checked on every request (cached briefly). */
  tokenEpochs: TokenEpochs;
  /** Personal API tokens (issue 21): made, listed and revoked by their owners. */
  apiTokens: ApiTokenService;
  /** Checks a `tsr_` credential and counts it against its rate limit (HTTP guard and live sockets). */
  apiTokenGate: ApiTokenGate;
  /** Failed sign-ins per (account, address), per address and per account (in Redis with REDIS_URL). */
  loginRateLimit: LoginRateLimit;
  /** Single sign-on (issue 21); undefined when OIDC_ISSUER is not set. */
  oidc?: OidcSignIn;
  /**
   * The live features' transport between api processes: `live.bus` (publish/subscribe, see
   * live/live-bus.ts) and `live.presence` (who is where, see live/presence-store.ts); in memory,
   * or in Redis with REDIS_URL.
   */
  live: LiveBackend;
  /** The authenticated live sockets by user: closed at their token's exp and when the user's session is revoked (every process). */
  socketSessions: SocketSessions;
  /** Imports and exports under way, per member and in all (transfer-slots.ts). */
  /** Imports, exports and the other requests that hold a whole sheet, under way per member and in all. */
  slots: TransferSlots;
  /** When the app was built, for uptime. */
  startedAt: number;
  version: string;
}

export interface ServicesOptions {
  services: AppServices;
}
