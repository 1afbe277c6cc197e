import crypto from 'node:crypto';
import {
  type AuthUser,
  LIVE_CLOSE,
  LIVE_OUTBOUND_MAX_BYTES,
  LIVE_TEXTS,
  type OnlineUser,
  type WorkspaceServerFrame,
  WorkspaceServerFrameSchema,
} from '@tessera/contracts';
import type { WebSocket } from '@fastify/websocket';
import { z } from 'zod';
import type { NavigationChange } from '../sheets/sheet-changes.js';
import type { LiveBackend } from './live-backend.js';
import type { LiveBus, LiveBusUnsubscribe } from './live-bus.js';
import type { PresenceRenewal } from './presence-store.js';
import { sendBounded } from './frame-outbox.js';
import { closeSocket } from './socket-close.js';

/** The bus channel and presence scope of the workspace socket (live-bus.ts, presence-store.ts). */
export const WORKSPACE_CHANNEL = 'workspace';
export const WORKSPACE_SCOPE = 'workspace';

/**
 * What api processes tell each other on the workspace channel: a frame for every workspace
 * socket, but `except` (the socket it concerns, named by its process and its id there).
 * Validated on receipt: with Redis it crossed the network.
 */
const WorkspaceBusMessageSchema = z.object({
  frame: WorkspaceServerFrameSchema,
  except: z.object({ process: z.string(), conn: z.string() }).optional(),
  /** Only this user's sockets get the frame (an import's progress). */
  to: z.string().optional(),
});
type WorkspaceBusMessage = z.infer<typeof WorkspaceBusMessageSchema>;

/**
 * Sends a frame to one user's workspace sockets, in every api process (an import's progress:
 * import/import.route.ts). Nobody else's socket gets it.
 */
export function publishToUser(bus: LiveBus, userId: string, frame: WorkspaceServerFrame): Promise<void> {
  const message: WorkspaceBusMessage = { frame, to: userId };
  return bus.publish(WORKSPACE_CHANNEL, message);
}

/** One authenticated workspace socket (one tab). */
export interface WorkspaceConnection {
  /** Unique in this process (a bus message names the socket it skips by it). */
  id: string;
  socket: WebSocket;
  user: AuthUser;
  displayName: string;
  /** Answered the last ping (see heartbeat). */
  alive: boolean;
  /** Frames for this socket wait here while an earlier one's access check runs: each socket gets its frames in order. */
  queue?: Promise<void>;
}

export interface WorkspaceHubDeps {
  live: LiveBackend;
  log: { error(obj: object, msg: string): void };
  /** Unread bytes a socket may hold before it is closed as too far behind (LIVE_OUTBOUND_MAX_BYTES). */
  outboundMaxBytes?: number;
  /** Whether the member may see the sheet or group (issue 18); absent: everyone sees everything. */
  canSee?: (user: AuthUser, item: { type: 'sheet' | 'group'; id: string }) => Promise<boolean>;
}

const SEEN_ONLY_BY_ITS_MEMBERS = new Set(['sheet_created', 'sheet_updated', 'group_created', 'group_updated']);

/**
 * The workspace socket `/live` (DESIGN.md § Live collaboration): who is online anywhere (one
 * entry per user, however many tabs, in however many api processes) and the navigation changes
 * (sheets and groups created, updated, deleted), so that every navigator stays current. Presence
 * is the live backend's store (scope `workspace`); every frame goes through the live bus, so
 * sockets on every api process get it, this one's included.
 */
export class WorkspaceHub {
  readonly #conns = new Map<string, WorkspaceConnection>();
  /** Sockets whose join is under way: a close during it is applied once the join is done. */
  readonly #joining = new Map<string, Promise<void>>();
  #unsubscribe: LiveBusUnsubscribe | undefined;

  constructor(private readonly deps: WorkspaceHubDeps) {}

  static newConnection(socket: WebSocket, user: AuthUser, displayName: string): WorkspaceConnection {
    return { id: crypto.randomUUID(), socket, user, displayName, alive: true };
  }

  /** Listens on the bus; resolves once what is published from now on arrives. */
  async start(): Promise<void> {
    this.#unsubscribe = await this.deps.live.bus.subscribe(WORKSPACE_CHANNEL, (message) => this.#deliver(message));
  }

  async stop(): Promise<void> {
    await this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  /** The socket gets everyone online (itself included); the others get user_online when it is the user's first socket anywhere. */
  join(conn: WorkspaceConnection): Promise<void> {
    const joining = this.#join(conn);
    this.#joining.set(conn.id, joining);
    return joining.finally(() => this.#joining.delete(conn.id));
  }

  async #join(conn: WorkspaceConnection): Promise<void> {
    const { presence } = this.deps.live;
    const { first } = await presence.enter(WORKSPACE_SCOPE, conn.user.id, conn.displayName);
    const users: OnlineUser[] = (await presence.list(WORKSPACE_SCOPE)).map((m) => ({ user_id: m.userId, display_name: m.displayName }));
    this.#conns.set(conn.id, conn);
    this.#send(conn, { type: 'online', data: { users } });
    if (first) await this.#publish({ type: 'user_online', data: { user_id: conn.user.id, display_name: conn.displayName } }, conn);
  }

  /** On close: user_offline when this was the user's last socket anywhere. */
  async leave(conn: WorkspaceConnection): Promise<void> {
    // A socket that closes while joining leaves once it has joined (so its entry is not left behind).
    await this.#joining.get(conn.id)?.catch(() => undefined);
    if (!this.#conns.delete(conn.id)) return;
    const { last } = await this.deps.live.presence.exit(WORKSPACE_SCOPE, conn.user.id);
    if (last) await this.#publish({ type: 'user_offline', data: { user_id: conn.user.id } });
  }

  /** A sheet or group changed: every workspace socket is told (the author's too: its other tabs need it). */
  navigation(change: NavigationChange): void {
    const data = {
      id: change.id,
      user_id: change.userId,
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.parentId !== undefined ? { parent_id: change.parentId } : {}),
    };
    void this.#publish({ type: change.type, data }).catch((err) => this.deps.log.error({ err }, 'workspace navigation publish failed'));
  }

  /**
   * One heartbeat round: a socket that did not answer the previous ping is dropped (closing it
   * makes its user leave), the others are pinged again; this process's workspace presence is
   * renewed and the users of processes that stopped renewing theirs (killed) go offline.
   */
  heartbeat(): void {
    for (const conn of this.#conns.values()) {
      if (!conn.alive) {
        conn.socket.terminate();
        continue;
      }
      conn.alive = false;
      conn.socket.ping();
    }
    void this.#renew().catch((err) => this.deps.log.error({ err }, 'workspace presence renewal failed'));
  }

  /** Users of api processes that died are offline; users of this one that another process had expired are back. */
  async #renew(): Promise<void> {
    const { left, rejoined }: PresenceRenewal = await this.deps.live.presence.renew(WORKSPACE_SCOPE);
    for (const e of left) await this.#publish({ type: 'user_offline', data: { user_id: e.userId } });
    for (const e of rejoined) await this.#publish({ type: 'user_online', data: { user_id: e.userId, display_name: e.displayName } });
  }

  /** Users with a workspace socket in this process (tests, metrics). */
  localUsers(): string[] {
    return [...new Set([...this.#conns.values()].map((c) => c.user.id))];
  }

  #publish(frame: WorkspaceServerFrame, except?: WorkspaceConnection): Promise<void> {
    const message: WorkspaceBusMessage = { frame, ...(except ? { except: { process: this.deps.live.processId, conn: except.id } } : {}) };
    return this.deps.live.bus.publish(WORKSPACE_CHANNEL, message);
  }

  #deliver(raw: unknown): void {
    const parsed = WorkspaceBusMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.log.error({ issues: parsed.error.issues.slice(0, 3) }, 'invalid workspace bus message');
      return;
    }
    const { frame, except, to } = parsed.data;
    const skip = except?.process === this.deps.live.processId ? except.conn : undefined;
    const text = JSON.stringify(frame);
    if (to !== undefined) {
      for (const conn of this.#conns.values()) if (conn.user.id === to) this.#inOrder(conn, () => this.#sendText(conn, text));
      return;
    }
    const canSee = this.deps.canSee;
    if (!canSee || !SEEN_ONLY_BY_ITS_MEMBERS.has(frame.type)) {
      for (const conn of this.#conns.values()) if (conn.id !== skip) this.#inOrder(conn, () => this.#sendText(conn, text));
      return;
    }
    // A sheet or group a member cannot see is never named to them; for them it is gone (their
    // navigator drops it, as after a sharing change that took it away).
    const data = frame.data as { id: string; user_id: string };
    const type = frame.type.startsWith('sheet') ? 'sheet' : 'group';
    const gone = JSON.stringify({ type: `${type}_deleted`, data: { id: data.id, user_id: data.user_id } });
    for (const conn of this.#conns.values()) {
      if (conn.id === skip) continue;
      const visible = canSee(conn.user, { type, id: data.id }).catch((err) => {
        this.deps.log.error({ err }, 'workspace: access check failed');
        return false;
      });
      this.#inOrder(conn, async () => this.#sendText(conn, (await visible) ? text : gone));
    }
  }

  /** Runs `send` after the socket's earlier frames went out (at once when none waits). */
  #inOrder(conn: WorkspaceConnection, send: () => void | Promise<void>): void {
    if (!conn.queue) {
      const done = send();
      if (!(done instanceof Promise)) return;
      const chain: Promise<void> = done.finally(() => {
        if (conn.queue === chain) conn.queue = undefined;
      });
      conn.queue = chain;
      return;
    }
    const chain: Promise<void> = conn.queue.then(send).finally(() => {
      if (conn.queue === chain) conn.queue = undefined;
    });
    conn.queue = chain;
  }

  #send(conn: WorkspaceConnection, frame: WorkspaceServerFrame): void {
    this.#sendText(conn, JSON.stringify(frame));
  }

  /** Backpressure: a socket that does not read what it is sent is closed (its client reconnects and gets `online` afresh). */
  #sendText(conn: WorkspaceConnection, text: string): void {
    if (sendBounded(conn.socket, text, this.deps.outboundMaxBytes ?? LIVE_OUTBOUND_MAX_BYTES) === 'behind') {
      closeSocket(conn.socket, LIVE_CLOSE.tooFarBehind, LIVE_TEXTS.tooFarBehind);
    }
  }
}
