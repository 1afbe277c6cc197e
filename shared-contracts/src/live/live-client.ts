import type { z } from 'zod';
import { RECONNECT_BASE_DELAY_MS, RECONNECT_MAX_DELAY_MS } from '../constants.js';
import type { ConnectionState } from '../shell/shell-context.js';
import { LIVE_TOKEN_PROTOCOL, liveCloseAction, unwrapLiveMessage } from './live.schema.js';

/**
 * A framework-free client for one live socket address (spec 01 §4 "Live connection"), used by
 * the shell for the open sheet's socket `/sheets/{id}` and the workspace socket `/live`.
 *
 * States: disconnected → (open) connected → (close) disconnected with a retry scheduled →
 * (the retry starts) reconnecting → connected ... An empty address closes any socket and marks
 * it disconnected. The retry waits 1000 ms × 2^attempts, capped at 30,000 ms; the counter rises
 * on each retry and resets on open. Heartbeats are the browser's (the server pings).
 *
 * Operations (`sendOperation`) are kept until the server settles them (an ack, an error naming
 * them, or their own operation frame replayed after a lost ack): sent at once while connected,
 * queued otherwise, and on every (re)connect all of them go again in order, so nothing typed
 * offline is lost (the server is idempotent by operation id). That replay waits for the server's
 * first frame (it speaks once the socket is authenticated and joined), so a long offline queue
 * never meets the server's small pre-join buffer. Other frames (`send`: a selection, a reload
 * request) are sent only while connected, as the spec says.
 *
 * After a close, what happens depends on its code (LIVE_CLOSE, liveCloseAction): an ended session
 * or an expired token asks `renewToken` once — a fresh token reconnects at once, none ends the
 * session (`onSessionEnded`, no more retries); a refusal (1008) refreshes the token for the next
 * attempt; anything else (backpressure 4408 included) retries with backoff and `?since=`.
 */

/** The part of the browser's WebSocket the client uses (the `ws` package's WebSocket fits too). */
export interface LiveSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type LiveSocketFactory = (url: string, protocols: string[]) => LiveSocketLike;

/** A frame as it came in: its type and data after custom_message unwrapping, before validation. */
export interface LiveMessage {
  type: string;
  data: unknown;
}

export interface LiveClientSnapshot {
  state: ConnectionState;
  /** Operations not settled by the server yet, queued offline ones included. */
  pending: number;
}

export interface LiveClientOptions<In> {
  /** The schema of the frames the server sends (`{type, data}` after unwrapping); others are ignored. */
  schema: z.ZodType<In>;
  /** The access token now (it may have been refreshed since the last attempt); offered as ['tessera.bearer', token]. */
  token(): string | null;
  /** The operation ids a frame settles (acknowledged, refused, or seen applied). Default: none. */
  settles?(frame: In): readonly string[];
  /** The sheet version a frame brings the client to, if any: the highest seen is sent as `?since=` on reconnect. */
  versionOf?(frame: In): number | undefined;
  /** A version held from elsewhere (the sheet as loaded over HTTP); `since` is the highest of this and the frames'. */
  heldVersion?(): number | null | undefined;
  /** More query parameters of each attempt, read when it starts (an undefined value is left out). */
  query?(): Readonly<Record<string, string | undefined>>;
  /** Told of every close, before the retry is scheduled. */
  onClose?(event: { code: number; reason: string }): void;
  /**
   * One token refresh (concurrent callers share it): the new token, or null when the session
   * cannot be renewed. Asked after a 1008 refusal, an ended session (4401) or an expired token (4440).
   */
  renewToken?(): Promise<string | null>;
  /** The server ended the session (4401 / 4440) and no fresh token could be had: sign out. No retry follows. */
  onSessionEnded?(event: { code: number; reason: string }): void;
  /** Creates the socket; default the browser's `new WebSocket(url, protocols)`. */
  createSocket?: LiveSocketFactory;
  /** Where parse failures are logged (spec 01 §8: they are only logged); default console.warn. */
  log?(message: string, detail?: unknown): void;
}

export interface LiveClient<In, Out> {
  readonly state: ConnectionState;
  readonly pending: number;
  /** The current state and pending count as one object, replaced on each change (for useSyncExternalStore). */
  snapshot(): LiveClientSnapshot;
  /** Opens (or switches to) `url`; an empty or null address closes the socket and marks it disconnected. */
  connect(url: string | null): void;
  /** Sends a frame only while connected (not done otherwise, spec 01 §4); returns whether it went. */
  send(frame: Out): boolean;
  /** Sends an operation frame now or as soon as connected, and again after a reconnect until settled. */
  sendOperation(id: string, frame: Out): void;
  /** Valid frames, in arrival order. Returns the unsubscribe function. */
  subscribe(listener: (frame: In) => void): () => void;
  /** Every incoming message after unwrapping, valid or not (e.g. `*_created` types outside the schema). */
  subscribeMessages(listener: (message: LiveMessage) => void): () => void;
  /** Told when state or pending change. */
  onChange(listener: (snapshot: LiveClientSnapshot) => void): () => void;
  /** Closes for good: no retry; queued operations are dropped. */
  close(): void;
}

/** The wait before retry number `attempts` (0-based): 1000 ms × 2^attempts, capped at 30,000 ms (spec 01 §9). */
export function reconnectDelay(attempts: number): number {
  return Math.min(RECONNECT_BASE_DELAY_MS * 2 ** attempts, RECONNECT_MAX_DELAY_MS);
}

/** `url` with `since` set (when a version is held) and the other parameters that have a value. */
function withQuery(url: string, since: number | undefined, query: Readonly<Record<string, string | undefined>> = {}): string {
  const params = Object.entries({ ...query, since: since === undefined ? undefined : String(since) }).filter((e): e is [string, string] => e[1] !== undefined);
  if (params.length === 0) return url;
  const parsed = new URL(url);
  for (const [name, value] of params) parsed.searchParams.set(name, value);
  return parsed.toString();
}

const OPEN = 1;

function browserSocket(url: string, protocols: string[]): LiveSocketLike {
  const Ctor = (globalThis as { WebSocket?: new (url: string, protocols: string[]) => LiveSocketLike }).WebSocket;
  if (!Ctor) throw new Error('No WebSocket in this environment: pass createSocket');
  return new Ctor(url, protocols);
}

export function createLiveClient<In, Out>(options: LiveClientOptions<In>): LiveClient<In, Out> {
  const createSocket = options.createSocket ?? browserSocket;
  const log = options.log ?? ((message: string, detail?: unknown) => console.warn(message, detail));
  const frameListeners = new Set<(frame: In) => void>();
  const messageListeners = new Set<(message: LiveMessage) => void>();
  const changeListeners = new Set<(snapshot: LiveClientSnapshot) => void>();
  /** Unsettled operations in the order they were sent. */
  const queue = new Map<string, Out>();

  let url = '';
  let socket: LiveSocketLike | null = null;
  let attempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let lastVersion: number | undefined;
  /** Raised by every open, connect and close: an answer of renewToken for an older socket changes nothing. */
  let generation = 0;
  /** The socket was opened and the server has not spoken yet (joining): queued operations wait. */
  let awaitingServer = false;
  let snap: LiveClientSnapshot = { state: 'disconnected', pending: 0 };

  const update = (state: ConnectionState) => {
    if (snap.state === state && snap.pending === queue.size) return;
    snap = { state, pending: queue.size };
    for (const l of [...changeListeners]) l(snap);
  };

  const clearRetry = () => {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  };

  /** Detaches and closes the socket so that its late events change nothing. */
  const dropSocket = () => {
    const s = socket;
    socket = null;
    if (!s) return;
    s.onopen = s.onclose = s.onerror = s.onmessage = null;
    try {
      s.close(1000, 'Closed by the client');
    } catch {
      // A socket still connecting may refuse close() in some implementations: it is detached anyway.
    }
  };

  const since = (): number | undefined => {
    const held = options.heldVersion?.() ?? undefined;
    if (held === undefined) return lastVersion;
    return lastVersion === undefined ? held : Math.max(held, lastVersion);
  };

  const transmit = (frame: Out): boolean => {
    if (!socket || socket.readyState !== OPEN || snap.state !== 'connected') return false;
    try {
      socket.send(JSON.stringify(frame));
      return true;
    } catch (err) {
      log('Live socket send failed', err);
      return false;
    }
  };

  const receive = (raw: unknown) => {
    if (awaitingServer) {
      awaitingServer = false;
      replayQueue();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof raw === 'string' ? raw : String(raw));
    } catch (err) {
      log('Live message is not JSON', err);
      return;
    }
    // Frames the server produced in the same tick come as one message holding an array of frames, in order.
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) handle(item);
  };

  const handle = (parsed: unknown) => {
    const message = unwrapLiveMessage(parsed);
    if (!message) return;
    for (const l of [...messageListeners]) l(message);
    const frame = options.schema.safeParse(message);
    // Unknown types and invalid frames are ignored (spec 01 §8): nothing to apply.
    if (!frame.success) return;
    const version = options.versionOf?.(frame.data);
    if (version !== undefined && (lastVersion === undefined || version > lastVersion)) lastVersion = version;
    let settled = false;
    for (const id of options.settles?.(frame.data) ?? []) settled = queue.delete(id) || settled;
    if (settled) update(snap.state);
    for (const l of [...frameListeners]) l(frame.data);
  };

  /** Everything unsettled goes again, in order: never-sent ones and those whose ack was lost. */
  const replayQueue = () => {
    for (const frame of queue.values()) if (!transmit(frame)) break;
  };

  /** After a close: reconnect, renew the session first, or end it (see liveCloseAction). */
  const afterClose = (event: { code: number; reason: string }, usedToken: string | null) => {
    const action = liveCloseAction(event.code);
    if (action === 'refreshAndRetry') void options.renewToken?.();
    if (action !== 'renewSession' || !options.renewToken) {
      scheduleRetry();
      return;
    }
    const mine = generation;
    void options.renewToken().then(
      (token) => {
        if (mine !== generation || !url) return;
        if (!token) {
          options.onSessionEnded?.(event);
          return;
        }
        // A token the server just refused again would loop: only a new one reconnects at once.
        if (token !== usedToken) open('reconnecting');
        else scheduleRetry();
      },
      () => {
        if (mine === generation && url) scheduleRetry();
      },
    );
  };

  const open = (state: ConnectionState) => {
    dropSocket();
    generation += 1;
    awaitingServer = false;
    const token = options.token();
    const protocols = token ? [LIVE_TOKEN_PROTOCOL, token] : [];
    update(state);
    let s: LiveSocketLike;
    try {
      s = createSocket(withQuery(url, since(), options.query?.()), protocols);
    } catch (err) {
      log('Live connection could not be created', err);
      scheduleRetry();
      return;
    }
    socket = s;
    s.onopen = () => {
      attempts = 0;
      clearRetry();
      awaitingServer = queue.size > 0;
      update('connected');
    };
    s.onmessage = (event) => receive(event.data);
    s.onerror = (event) => {
      log('Live socket error', event);
      update('disconnected');
    };
    s.onclose = (event) => {
      socket = null;
      s.onopen = s.onclose = s.onerror = s.onmessage = null;
      awaitingServer = false;
      update('disconnected');
      const closed = { code: event.code, reason: event.reason };
      options.onClose?.(closed);
      afterClose(closed, token);
    };
  };

  function scheduleRetry() {
    if (!url || retryTimer !== null) return;
    update('disconnected');
    const delay = reconnectDelay(attempts);
    attempts += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (url) open('reconnecting');
    }, delay);
  }

  return {
    get state() {
      return snap.state;
    },
    get pending() {
      return queue.size;
    },
    snapshot: () => snap,
    connect(next) {
      const address = next ?? '';
      if (address === url && (socket || retryTimer !== null)) return;
      clearRetry();
      dropSocket();
      generation += 1;
      if (address !== url) {
        // Versions belong to the address they were seen on.
        lastVersion = undefined;
        attempts = 0;
      }
      url = address;
      if (!url) {
        update('disconnected');
        return;
      }
      open('disconnected');
    },
    send: (frame) => transmit(frame),
    sendOperation(id, frame) {
      queue.set(id, frame);
      update(snap.state);
      // While the server has not spoken yet, the replay that follows its first frame sends it.
      if (!awaitingServer) transmit(frame);
    },
    subscribe(listener) {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    subscribeMessages(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    close() {
      url = '';
      generation += 1;
      clearRetry();
      dropSocket();
      queue.clear();
      update('disconnected');
    },
  };
}
