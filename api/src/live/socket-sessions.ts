import { API_TOKEN_TEXTS, LIVE_CLOSE, LIVE_TEXTS } from '@tessera/contracts';
import { z } from 'zod';
import type { TokenEpochs } from '../auth/token-epochs.js';
import type { LiveBus, LiveBusUnsubscribe } from './live-bus.js';
import type { SocketAuth } from './live-auth.js';
import { type ClosableSocket, closeSocket } from './socket-close.js';

/** The bus channel on which api processes tell each other that a user's token epoch moved. */
export const REVOCATION_CHANNEL = 'session-revocations';
const RevocationMessageSchema = z.object({ user_id: z.string().min(1).max(128) });

const SOCKET_CLOSED = 3;

/** How often every tracked user's epoch is read again: the backstop when a bus message was lost. */
export const EPOCH_RECHECK_MS = 30_000;

interface Tracked {
  socket: ClosableSocket;
  epoch: number;
  /** Opened with a personal API token: it ends when that token is revoked or expires, not with the epoch. */
  apiTokenId?: string;
  expiry: NodeJS.Timeout | undefined;
}

/** setTimeout holds at most 2^31-1 ms (24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface SocketSessionsDeps {
  bus: LiveBus;
  epochs: TokenEpochs;
  /** Whether a personal API token still works (sockets opened with one are checked on every revocation). */
  apiTokens?: { isLive(tokenId: string): Promise<boolean> };
  log: { error(obj: object, msg: string): void };
  recheckMs?: number;
  now?: () => number;
}

/**
 * The authenticated sockets of this process (sheet and workspace), by user, and what ends them
 * after the connect-time check (issue 17 §3):
 * - a revocation: this process raised a user's token epoch or deleted them (TokenEpochs.changed)
 *   → a message on the live bus → every api process reads the user's epoch again and closes
 *   their sockets opened with another one, with 4401 and LIVE_TEXTS.sessionEnded;
 * - the token's exp: a timer per socket closes it with 4440 (the client reconnects with a
 *   fresh token);
 * - a lost bus message (Redis down for a moment): every EPOCH_RECHECK_MS the epochs of the
 *   users with sockets here are read again (cached TOKEN_EPOCH_CACHE_MS) and compared.
 */
export class SocketSessions {
  readonly #byUser = new Map<string, Set<Tracked>>();
  readonly #now: () => number;
  #unsubscribe: LiveBusUnsubscribe | undefined;
  #stopListening: (() => void) | undefined;
  #recheck: NodeJS.Timeout | undefined;

  constructor(private readonly deps: SocketSessionsDeps) {
    this.#now = deps.now ?? Date.now;
  }

  /** Listens on the bus and to this process's epoch changes; resolves once revocations reach it. */
  async start(): Promise<void> {
    this.#unsubscribe = await this.deps.bus.subscribe(REVOCATION_CHANNEL, (message) => {
      const parsed = RevocationMessageSchema.safeParse(message);
      if (!parsed.success) {
        this.deps.log.error({ issue: parsed.error.issues[0]?.message }, 'invalid session revocation message');
        return;
      }
      void this.revoked(parsed.data.user_id).catch((err) => this.deps.log.error({ err }, 'session revocation failed'));
    });
    this.#stopListening = this.deps.epochs.onChanged((userId) => {
      this.deps.bus.publish(REVOCATION_CHANNEL, { user_id: userId }).catch((err) => {
        // Not lost for good: the periodic recheck closes them (this process's own at once).
        this.deps.log.error({ err }, 'session revocation publish failed');
        void this.revoked(userId).catch(() => {});
      });
    });
    this.#recheck = setInterval(() => void this.recheck().catch((err) => this.deps.log.error({ err }, 'session recheck failed')), this.deps.recheckMs ?? EPOCH_RECHECK_MS);
    this.#recheck.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#recheck);
    this.#stopListening?.();
    await this.#unsubscribe?.();
    for (const set of this.#byUser.values()) for (const t of set) clearTimeout(t.expiry);
    this.#byUser.clear();
  }

  /**
   * Tracks an authenticated socket until it closes: it is closed at its token's exp, and on a
   * revocation of its user.
   */
  track(socket: ClosableSocket, auth: SocketAuth): void {
    // Closed while authenticating: its 'close' has been told already, nothing to end.
    if (socket.readyState >= SOCKET_CLOSED) return;
    const delay = Math.max(0, auth.expiresAt - this.#now());
    const tracked: Tracked = {
      socket,
      epoch: auth.epoch,
      apiTokenId: auth.apiToken?.id,
      // Access tokens live minutes; an API token further than the longest timer away is ended by the recheck.
      expiry:
        delay <= MAX_TIMER_MS ? setTimeout(() => this.#end(auth.user.id, tracked, LIVE_CLOSE.tokenExpired, LIVE_TEXTS.tokenExpired), delay) : undefined,
    };
    tracked.expiry?.unref();
    let set = this.#byUser.get(auth.user.id);
    if (!set) {
      set = new Set();
      this.#byUser.set(auth.user.id, set);
    }
    set.add(tracked);
    socket.once('close', () => this.#untrack(auth.user.id, tracked));
  }

  /** Sockets tracked for `userId` in this process (tests, metrics). */
  count(userId: string): number {
    return this.#byUser.get(userId)?.size ?? 0;
  }

  /** The user's epoch moved or they are gone: their sockets opened with another epoch close. */
  async revoked(userId: string): Promise<void> {
    if (!this.#byUser.has(userId)) {
      this.deps.epochs.forget(userId);
      return;
    }
    this.deps.epochs.forget(userId);
    await this.#closeStale(userId, await this.deps.epochs.current(userId));
  }

  /** Reads every tracked user's epoch again (through the short cache) and closes stale sockets. */
  async recheck(): Promise<void> {
    for (const userId of [...this.#byUser.keys()]) await this.#closeStale(userId, await this.deps.epochs.current(userId));
  }

  async #closeStale(userId: string, epoch: number | null): Promise<void> {
    for (const tracked of [...(this.#byUser.get(userId) ?? [])]) {
      if (tracked.apiTokenId !== undefined) {
        // Revoked, expired, or its owner gone: the token's sockets end (the epoch does not concern them).
        if (epoch === null || !(await this.deps.apiTokens?.isLive(tracked.apiTokenId))) {
          this.#end(userId, tracked, LIVE_CLOSE.sessionEnded, API_TOKEN_TEXTS.invalid);
        }
      } else if (epoch === null || tracked.epoch !== epoch) this.#end(userId, tracked, LIVE_CLOSE.sessionEnded, LIVE_TEXTS.sessionEnded);
    }
  }

  #end(userId: string, tracked: Tracked, code: number, reason: string): void {
    this.#untrack(userId, tracked);
    closeSocket(tracked.socket, code, reason);
  }

  #untrack(userId: string, tracked: Tracked): void {
    clearTimeout(tracked.expiry);
    const set = this.#byUser.get(userId);
    if (!set?.delete(tracked)) return;
    if (set.size === 0) this.#byUser.delete(userId);
  }
}
