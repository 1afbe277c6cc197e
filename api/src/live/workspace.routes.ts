import { LIVE_CLOSE, LIVE_HEARTBEAT_MS, LIVE_OUTBOUND_MAX_BYTES, LiveConnectQuerySchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';
import { authenticateSocket, socketToken } from './live-auth.js';
import { explainOversizeClose, notASocketUpgrade } from './socket-close.js';
import { type WorkspaceConnection, WorkspaceHub } from './workspace-hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The workspace socket's hub (who is online, navigation changes); tests drive its heartbeat. */
    workspace: WorkspaceHub;
  }
}

/**
 * The workspace socket `GET /live` (WebSocket): who is online anywhere and navigation changes.
 * Same token rules as the sheet socket (`?token=` or the `tessera.bearer` subprotocol pair; a
 * `user_id` in the URL is never trusted): a missing or bad token closes it with 1008 before any
 * data. Public for the HTTP auth guard because the socket authenticates itself. Clients send
 * nothing on it; what they send is ignored.
 */
export const workspaceRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const hub = new WorkspaceHub({
    live: services.live,
    log: app.log,
    outboundMaxBytes: services.config.liveOutboundMaxBytes ?? LIVE_OUTBOUND_MAX_BYTES,
    canSee: async (user, item) => (await services.access.levelOn(user, item)) !== 'none',
  });
  await hub.start();
  app.decorate('workspace', hub);

  // Every navigation change made through the services (REST, import, anything else) is told.
  const unsubscribers = [
    services.sheets.navigation.subscribe((change) => hub.navigation(change)),
    services.groups.navigation.subscribe((change) => hub.navigation(change)),
    // Sheets deleted with their group: their sheet sockets close as for a sheet deleted on its own.
    services.groups.navigation.subscribe((change) => {
      for (const sheetId of change.sheetIds ?? []) services.sheets.changes.emit({ sheetId, kind: 'deleted' });
    }),
  ];
  const heartbeat = setInterval(() => hub.heartbeat(), services.config.liveHeartbeatMs ?? LIVE_HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    for (const unsubscribe of unsubscribers) unsubscribe();
    await hub.stop();
  });

  app.route({
    method: 'GET',
    url: '/live',
    config: { public: true },
    handler: notASocketUpgrade,
    wsHandler: (socket, request) => {
      explainOversizeClose(socket);
      let conn: WorkspaceConnection | undefined;
      socket.on('pong', () => {
        if (conn) conn.alive = true;
      });
      socket.on('close', () => {
        if (conn) hub.leave(conn).catch((err) => request.log.error({ err }, 'workspace socket leave failed'));
      });
      socket.on('error', (err) => request.log.warn({ err }, 'workspace socket error'));

      const open = async () => {
        const query = LiveConnectQuerySchema.safeParse(request.query);
        if (!query.success) return socket.close(LIVE_CLOSE.policyViolation, 'Invalid connection parameters');
        const auth = await authenticateSocket(socketToken(request.raw, query.data.token), services.accessTokens, services.tokenEpochs, services.apiTokenGate);
        if ('reason' in auth) return socket.close(auth.code, auth.reason);
        services.socketSessions.track(socket, auth);
        const row = await services.users.findById(auth.user.id);
        // Closed while authenticating: nothing to register.
        if (socket.readyState !== socket.OPEN) return;
        conn = WorkspaceHub.newConnection(socket, auth.user, row?.nickname || auth.user.username);
        await hub.join(conn);
      };
      open().catch((err) => {
        request.log.error({ err }, 'workspace socket setup failed');
        socket.close(1011, 'Internal error');
      });
    },
  });
};

// Registered without encapsulation (what fastify-plugin does) so that `app.workspace` is on the root instance.
(workspaceRoutes as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
