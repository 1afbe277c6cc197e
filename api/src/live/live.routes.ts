import { Counter, type Registry } from 'prom-client';
import {
  type AccessLevel,
  LIVE_CLOSE,
  LIVE_HEARTBEAT_MS,
  LIVE_OUTBOUND_MAX_BYTES,
  LIVE_PREJOIN_MAX_BYTES,
  LIVE_PREJOIN_MAX_FRAMES,
  LIVE_TEXTS,
  LiveConnectQuerySchema,
} from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';
import { SheetIdParamsSchema } from '../sheets/sheet-params.js';
import { authenticateSocket, socketToken } from './live-auth.js';
import { type LiveConnection, LiveHub, type RawData, rawSize } from './live-hub.js';
import { warmLivePath } from './live-warmup.js';
import { SheetOpsRepository } from './sheet-ops.repository.js';
import { closeSocket, explainOversizeClose, notASocketUpgrade } from './socket-close.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live sheets (presence, operations); tests drive its heartbeat. */
    live: LiveHub;
  }
}

/**
 * The live sheet socket `GET /sheets/:sheetId` (WebSocket). It is `public` for the HTTP auth
 * guard because a browser cannot send an Authorization header on a WebSocket: the socket
 * authenticates itself with the same checks and closes with 1008 before sending anything.
 */
export const liveRoutes: FastifyPluginAsync<ServicesOptions & { metrics: Registry }> = async (app, { services, metrics }) => {
  const ops = new SheetOpsRepository(services.db);
  // Operations per second is rate(live_operations_total) in Prometheus.
  const operations = new Counter({ name: 'live_operations_total', help: 'Live operations persisted and acknowledged', registers: [metrics] });
  const cells = new Counter({ name: 'live_operation_cells_total', help: 'Cells changed by live operations', registers: [metrics] });
  // Across api processes (REDIS_URL): versions whose bus message came late or never, read from the op log instead.
  // Operations per group commit is rate(live_operations_total) / rate(live_groups_total) (GROUP_FILL_OPS).
  const groups = new Counter({ name: 'live_groups_total', help: 'Live group commits (one transaction and one message per socket each)', registers: [metrics] });
  const gaps = new Counter({ name: 'live_version_gaps_total', help: 'Sheet versions read from the op log because the live bus did not deliver them in time', registers: [metrics] });
  // A windowed page's sync reads the sheet's summary only; one with the cells parses the whole grid (issue 23).
  const syncReads = new Counter({ name: 'live_sync_reads_total', help: 'Sheets read for a live sync, with the whole grid (cells="whole") or without (cells="none": every socket windowed)', labelNames: ['cells'], registers: [metrics] });
  const hub = new LiveHub({
    sheets: services.sheets,
    ops,
    slots: services.slots,
    log: app.log,
    bus: services.live.bus,
    presence: services.live.presence,
    processId: services.live.processId,
    onApplied: (count) => {
      operations.inc();
      cells.inc(count);
    },
    onGapRead: (versions) => gaps.inc(versions),
    onSyncRead: (cells) => syncReads.inc({ cells: cells ? 'whole' : 'none' }),
    onGroup: () => groups.inc(),
    outboundMaxBytes: services.config.liveOutboundMaxBytes ?? LIVE_OUTBOUND_MAX_BYTES,
    groupWindowMs: services.config.liveGroupWindowMs,
    groupMaxWaitMs: services.config.liveGroupMaxWaitMs,
    groupFillOps: services.config.liveGroupFillOps,
    queueMaxOps: services.config.liveSheetQueueMaxOps,
    queueMaxBytes: services.config.liveSheetQueueMaxBytes,
  });
  app.decorate('live', hub);
  const unsubscribe = services.sheets.changes.subscribe((change) => hub.onSheetChange(change));
  // Sharing changed somewhere (any process): each open socket's level is read again, once per member and sheet.
  const stopAccess = await services.accessChanges.subscribe(() => {
    const levels = new Map<string, Promise<AccessLevel>>();
    hub
      .reviewAccess((conn) => {
        const key = `${conn.user.id}:${conn.sheetId}`;
        let level = levels.get(key);
        if (!level) levels.set(key, (level = services.access.levelOn(conn.user, { type: 'sheet', id: conn.sheetId })));
        return level;
      })
      .catch((err) => app.log.error({ err }, 'live: reviewing access after a sharing change failed'));
  });
  // After the api listens (readiness is not delayed), in the background: see live-warmup.ts.
  const warmupMs = services.config.liveWarmupMs ?? 0;
  if (warmupMs > 0) {
    app.addHook('onListen', (done) => {
      warmLivePath(services.sheets, warmupMs).then(
        (w) => app.log.info({ rounds: w.rounds, versions: w.versions, ms: Math.round(w.ms) }, 'live path warmed up'),
        (err) => app.log.warn({ err }, 'live warm-up failed (nothing of it was kept)'),
      );
      done();
    });
  }
  const heartbeat = setInterval(() => hub.heartbeat(), services.config.liveHeartbeatMs ?? LIVE_HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    unsubscribe();
    await stopAccess();
    await hub.close();
  });

  app.route({
    method: 'GET',
    url: '/sheets/:sheetId',
    config: { public: true },
    handler: notASocketUpgrade,
    wsHandler: (socket, request) => {
      explainOversizeClose(socket);
      // Listeners are attached at once: frames that arrive while the token is checked wait here,
      // within LIVE_PREJOIN_MAX_FRAMES and LIVE_PREJOIN_MAX_BYTES (the client replays its queue
      // only after the join, so only a frame or two of a real client ever waits).
      const pending: RawData[] = [];
      let pendingBytes = 0;
      let conn: LiveConnection | undefined;
      let ready = false;
      socket.on('message', (data: RawData) => {
        // Closing (revoked, expired, too far behind, flooded): what it still sends changes nothing.
        if (socket.readyState !== socket.OPEN) return;
        if (ready && conn) {
          hub.handleFrame(conn, data);
          return;
        }
        pendingBytes += rawSize(data);
        if (pending.length < LIVE_PREJOIN_MAX_FRAMES && pendingBytes <= LIVE_PREJOIN_MAX_BYTES) {
          pending.push(data);
          return;
        }
        pending.length = 0;
        closeSocket(socket, LIVE_CLOSE.policyViolation, LIVE_TEXTS.tooManyBeforeJoin);
      });
      socket.on('pong', () => {
        if (conn) conn.alive = true;
      });
      socket.on('close', () => {
        if (conn) hub.leave(conn);
      });
      socket.on('error', (err) => request.log.warn({ err }, 'live socket error'));

      const open = async () => {
        const query = LiveConnectQuerySchema.safeParse(request.query);
        if (!query.success) return socket.close(LIVE_CLOSE.policyViolation, 'Invalid connection parameters');
        const auth = await authenticateSocket(socketToken(request.raw, query.data.token), services.accessTokens, services.tokenEpochs, services.apiTokenGate);
        if ('reason' in auth) return socket.close(auth.code, auth.reason);
        // Closed from now on at the token's exp, or when the user's session is revoked.
        services.socketSessions.track(socket, auth);
        const params = SheetIdParamsSchema.safeParse({ id: (request.params as { sheetId?: string }).sheetId });
        // No access is no sheet: the same close as a sheet that does not exist.
        const access = params.success ? await services.access.levelOn(auth.user, { type: 'sheet', id: params.data.id }) : 'none';
        const version = params.success && access !== 'none' ? await ops.currentVersion(params.data.id) : undefined;
        if (!params.success || version === undefined) return socket.close(LIVE_CLOSE.sheetNotFound, 'Sheet not found');
        const row = await services.users.findById(auth.user.id);
        conn = { socket, user: auth.user, displayName: row?.nickname || auth.user.username, sheetId: params.data.id, alive: true, access, readOnlyToken: auth.apiToken?.scope === 'read', grid: query.data.grid ?? 'whole' };
        await hub.join(conn, query.data.since);
        ready = true;
        for (const data of pending.splice(0)) if (socket.readyState === socket.OPEN) hub.handleFrame(conn, data);
      };
      open().catch((err) => {
        request.log.error({ err }, 'live socket setup failed');
        socket.close(1011, 'Internal error');
      });
    },
  });
};

// Registered without encapsulation (what fastify-plugin does) so that `app.live` is on the root instance.
(liveRoutes as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
