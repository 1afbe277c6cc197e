import { readFileSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import { API_TOKEN_RATE_LIMIT_DEFAULT, API_TOKENS_PATH, DEFAULT_TRASH_RETENTION_DAYS, DEFAULT_WORKSPACE_ACCESS, LIVE_HEARTBEAT_MS, LIVE_MAX_FRAME_BYTES } from '@tessera/contracts';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { AccessTokenService } from './auth/access-token.service.js';
import { authRoutes } from './auth/auth.routes.js';
import { type LoginRateLimit, MemoryLoginRateLimit, RedisLoginRateLimit } from './auth/login-rate-limit.js';
import { PasswordService } from './auth/password.service.js';
import { RefreshTokenService } from './auth/refresh-token.service.js';
import { loadSigningKeys } from './auth/signing-keys.js';
import { TokenEpochs } from './auth/token-epochs.js';
import { type AppConfig, DEFAULT_TRUST_PROXY } from './config.js';
import { openDatabase } from './db/database.js';
import type { Database } from './db/schema.js';
import { healthRoute } from './health/health.route.js';
import { installAuthGuard } from './http/auth-guard.js';
import { installErrorHandling } from './http/error-handler.js';
import { installJsonParser } from './http/json-parser.js';
import { echoRequestId, genReqId, installHttpMetrics, loggerOptions } from '@tessera/server-kit';
import type { AppServices } from './services.js';
import { TransferSlots } from './transfers/transfer-slots.js';
import { usersRoute } from './users/users.route.js';
import { UsersRepository } from './users/users.repository.js';
import { SheetsService } from './sheets/sheets.service.js';
import { ColumnCompactor } from './sheets/column-compactor.js';
import { GroupsService } from './groups/groups.service.js';
import { sheetsRoutes } from './sheets/sheets.routes.js';
import { groupsRoutes } from './groups/groups.routes.js';
import { itemsRoutes } from './items/items.routes.js';
import { importRoute } from './import/import.route.js';
import { exportRoute } from './export/export.route.js';
import { versionsRoutes } from './versions/versions.routes.js';
import { chartsRoutes } from './charts/charts.routes.js';
import { selectProtocol } from './live/live-auth.js';
import { liveRoutes } from './live/live.routes.js';
import { workspaceRoutes } from './live/workspace.routes.js';
import { liveNamespace, openLiveBackend } from './live/live-backend.js';
import { openRedis } from './live/redis-connection.js';
import { SocketSessions } from './live/socket-sessions.js';
import { AccessService } from './access/access.service.js';
import { installAccessGuard } from './access/access-guard.js';
import { AccessChanges } from './access/access-changes.js';
import { sharingRoutes } from './access/sharing.routes.js';
import { ActivityLog } from './activity/activity-log.js';
import { activityRoutes } from './activity/activity.routes.js';
import { TrashService } from './trash/trash.service.js';
import { trashRoutes } from './trash/trash.routes.js';
import { ApiTokenService } from './api-tokens/api-token.service.js';
import { ApiTokenGate } from './api-tokens/api-token-gate.js';
import { type ApiTokenRateLimit, MemoryApiTokenRateLimit, RedisApiTokenRateLimit } from './api-tokens/api-token-rate-limit.js';
import { apiTokensRoutes } from './api-tokens/api-tokens.routes.js';
import { OidcAccounts } from './oidc/oidc-accounts.js';
import { OidcSignIn } from './oidc/oidc-sign-in.js';
import { oidcRoutes } from './oidc/oidc.routes.js';
import { installOpenApi } from './openapi/openapi.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's database, closed with the app. */
    db: Kysely<Database>;
    /** Writes column inserts and removals into the chunks in the background (tests await it with settle()). */
    columnCompactor: ColumnCompactor;
    /** Requests under way that hold a whole upload, sheet or version (tests wait until theirs hold one). */
    slots: TransferSlots;
  }
}

/** Generous for JSON API bodies; uploads (later issues) set their own limit per route. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

// src/app.ts and dist/app.js both sit one level under the package root.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export interface BuildOptions {
  /**
   * Called for every route as it is registered (tests collect them to probe each one).
   * It has to be passed in: a Fastify instance is thenable, so the promise buildApp returns
   * resolves only after `ready()`, when adding an onRoute hook is too late.
   */
  onRoute?: (route: RouteOptions) => void;
  /** Called before the first route with the bare app (tests add their response checks here). */
  instrument?: (app: FastifyInstance) => void;
}

/** Builds the api without listening (ready, all routes registered). */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const keys = await loadSigningKeys({
    keysDir: path.join(config.dataDir, 'keys'),
    privateKeyPem: config.jwtPrivateKeyPem,
    publicKeyPem: config.jwtPublicKeyPem,
  });
  const db = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'api') });
  // The live backend logs through the app's logger once it exists (Redis reconnects, bad messages).
  let appLog: FastifyBaseLogger | undefined;
  const liveLog = {
    warn: (obj: object, msg: string) => (appLog ? appLog.warn(obj, msg) : bootLog.warn(obj, msg)),
    error: (obj: object, msg: string) => (appLog ? appLog.error(obj, msg) : bootLog.error(obj, msg)),
  };
  let live;
  try {
    live = await openLiveBackend({
      redisUrl: config.redisUrl,
      databaseIdentity: databaseIdentity(config),
      // Entries outlive two missed renewals: a process is declared dead after about 3 heartbeats.
      presenceTtlMs: 3 * (config.liveHeartbeatMs ?? LIVE_HEARTBEAT_MS),
      log: liveLog,
    });
  } catch (err) {
    await db.destroy();
    throw err;
  }
  // Sign-in failures are counted where every api process sees them: in Redis when there is one.
  let loginRateLimit: LoginRateLimit;
  // API tokens' requests too (on the same connection, closed with the login limit's).
  let apiTokenRateLimit: ApiTokenRateLimit;
  const apiTokenLimit = config.apiTokenRateLimit ?? API_TOKEN_RATE_LIMIT_DEFAULT;
  try {
    if (config.redisUrl) {
      const redis = await openRedis(config.redisUrl, liveLog);
      loginRateLimit = new RedisLoginRateLimit(redis.commands, liveNamespace(databaseIdentity(config)), {}, redis.close);
      apiTokenRateLimit = new RedisApiTokenRateLimit(redis.commands, liveNamespace(databaseIdentity(config)), apiTokenLimit);
    } else {
      loginRateLimit = new MemoryLoginRateLimit();
      apiTokenRateLimit = new MemoryApiTokenRateLimit(apiTokenLimit);
    }
  } catch (err) {
    await live.close();
    await db.destroy();
    throw err;
  }

  const tokenEpochs = new TokenEpochs(db);
  const apiTokens = new ApiTokenService(db);
  // Revocations reach open sockets in every api process (through the live bus).
  const socketSessions = new SocketSessions({
    bus: live.bus,
    epochs: tokenEpochs,
    apiTokens,
    log: liveLog,
    recheckMs: config.liveHeartbeatMs ?? LIVE_HEARTBEAT_MS,
  });
  const sheets = new SheetsService(db, config.sheetMaxCells);
  const columnCompactor = new ColumnCompactor(db, sheets.changes, liveLog);
  const groups = new GroupsService(db);
  const access = new AccessService(db, config.workspaceDefaultAccess ?? DEFAULT_WORKSPACE_ACCESS);
  const activity = new ActivityLog(db);
  const passwords = new PasswordService();
  const users = new UsersRepository(db);
  const services: AppServices = {
    config,
    db,
    keys,
    accessTokens: new AccessTokenService(keys),
    refreshTokens: new RefreshTokenService(db),
    passwords,
    users,
    sheets,
    groups,
    access,
    accessChanges: new AccessChanges(live.bus, liveLog),
    slots: new TransferSlots(),
    activity,
    trash: new TrashService({ db, access, activity, sheets, groups, retentionDays: config.trashRetentionDays ?? DEFAULT_TRASH_RETENTION_DAYS }),
    tokenEpochs,
    apiTokens,
    apiTokenGate: new ApiTokenGate(apiTokens, apiTokenRateLimit),
    loginRateLimit,
    oidc: config.oidc ? new OidcSignIn(config.oidc, new OidcAccounts(db, passwords), users, tokenEpochs, config.passwordLogin ?? true) : undefined,
    live,
    socketSessions,
    startedAt: Date.now(),
    version,
  };
  // A sort of a large sheet reads it whole under a process 'sheet read' slot, as a whole-sheet sync does.
  sheets.readSlot = () => services.slots.wait('sheet read');

  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    genReqId,
    bodyLimit: BODY_LIMIT_BYTES,
    // Whose X-Forwarded-For/-Proto/-Host is believed (TRUST_PROXY): by default the shell server
    // on the same host. request.ip is then the client that proxy names (sign-in throttling).
    trustProxy: config.trustProxy ?? DEFAULT_TRUST_PROXY,
    // Every plugin is local; on a busy 2-core host one can take longer than avvio's 10 s to
    // register (seen under load), and a slow start beats a crash at start.
    pluginTimeout: 60_000,
  });
  appLog = app.log;
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  options.instrument?.(app);
  app.decorate('db', db);
  app.decorate('columnCompactor', columnCompactor);
  app.decorate('trash', services.trash);
  app.decorate('slots', services.slots);
  app.addHook('onClose', async () => {
    await socketSessions.stop();
    await loginRateLimit.close();
    await live.close();
    await columnCompactor.close();
    await db.destroy();
  });

  try {
    installErrorHandling(app, BODY_LIMIT_BYTES);
    installJsonParser(app);
    const metrics = installHttpMetrics(app, 'api');
    columnCompactor.instrument(metrics);
    echoRequestId(app);
    installAuthGuard(app, services.accessTokens, services.tokenEpochs, services.apiTokenGate);
    installAccessGuard(app, services.access);
    installOpenApi(app, version);
    await app.register(cookie);
    // One WebSocket server for every socket route: a bigger frame closes its socket with 1009.
    await app.register(websocket, { options: { maxPayload: LIVE_MAX_FRAME_BYTES, handleProtocols: selectProtocol } });
    await socketSessions.start();

    app.register(healthRoute, { services });
    app.register(authRoutes, { prefix: '/api/v1/auth', services });
    app.register(oidcRoutes, { prefix: '/api/v1/auth', services });
    app.register(apiTokensRoutes, { prefix: API_TOKENS_PATH, services });
    app.register(usersRoute, { prefix: '/api/v1/users', services });
    app.register(sheetsRoutes, { prefix: '/api/v1/sheets', services });
    app.register(exportRoute, { prefix: '/api/v1/sheets', services });
    app.register(versionsRoutes, { prefix: '/api/v1/sheets', services });
    app.register(chartsRoutes, { prefix: '/api/v1/sheets', services });
    app.register(groupsRoutes, { prefix: '/api/v1/groups', services });
    app.register(itemsRoutes, { prefix: '/api/v1/items', services });
    app.register(importRoute, { prefix: '/api/v1/import', services });
    app.register(sharingRoutes, { prefix: '/api/v1', services });
    app.register(trashRoutes, { prefix: '/api/v1/trash', services });
    app.register(activityRoutes, { prefix: '/api/v1/activity', services });
    app.register(liveRoutes, { services, metrics });
    app.register(workspaceRoutes, { services });
    await app.ready();
    columnCompactor.start();
  } catch (err) {
    await columnCompactor.close();
    await app.close().catch(() => {});
    await loginRateLimit.close().catch(() => {});
    await live.close().catch(() => {}); // a no-op when onClose already did it
    await db.destroy(); // a no-op when onClose already did it
    throw err;
  }
  return app;
}

/**
 * Which database this app runs on, without credentials: api processes on the same one share
 * live state in Redis (live-backend.ts namespaces keys and channels by it).
 */
function databaseIdentity(config: AppConfig): string {
  if (!config.databaseUrl) return `pglite:${path.join(config.dataDir, 'api')}`;
  const url = new URL(config.databaseUrl);
  return `postgres:${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

/** Before Fastify's logger exists: the live backend's connection warnings go to stderr as JSON. */
const bootLog = {
  warn: (obj: object, msg: string) => console.error(JSON.stringify({ level: 'warn', msg, ...obj })),
  error: (obj: object, msg: string) => console.error(JSON.stringify({ level: 'error', msg, ...obj })),
};
