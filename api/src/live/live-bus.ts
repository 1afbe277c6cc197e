/**
 * The transport between api processes for everything live (the sheet sockets' frames, the
 * workspace socket's events): publish a message on a channel, every subscriber of that channel
 * in every api process gets it — this process included, so a feature has ONE delivery path
 * whether one process runs or several.
 *
 * Two implementations: in this process's memory (no REDIS_URL: one api process) and Redis
 * pub/sub (`REDIS_URL`: several api processes on one database). Pick one with `createLiveBus`.
 *
 * Guarantees (both implementations):
 * - Messages one process publishes on one channel reach each subscriber in publication order.
 *   Nothing orders messages of DIFFERENT processes: a feature that needs a global order carries
 *   it in the message (the sheet socket uses the sheet's version, see version-sequencer.ts).
 * - A message is JSON: what is published must survive JSON.stringify, and a handler gets the
 *   parsed value as `unknown` and validates it (zod) before use — with Redis it crossed a network.
 * - Delivery is at most once: a message published while a subscription is being set up, or while
 *   Redis is unreachable, may be lost. Features recover from the database (replay by version).
 * - A handler runs synchronously in the delivery; it must not throw (a throw is logged and
 *   swallowed, other handlers still run).
 *
 * Channel names are the feature's own (e.g. `sheet:<uuid>`, `workspace`); the implementation
 * namespaces them per database (see live-namespace.ts), so one Redis can serve several
 * deployments or test databases without crosstalk.
 */
export type LiveBusHandler = (message: unknown) => void;

/** Ends one subscription; resolves once the implementation stopped listening. */
export type LiveBusUnsubscribe = () => Promise<void>;

export interface LiveBus {
  /** 'memory': this process only; 'redis': every api process on the same Redis and database. */
  readonly kind: 'memory' | 'redis';
  /** Sends `message` to every subscriber of `channel`, in every process (this one too). */
  publish(channel: string, message: unknown): Promise<void>;
  /** Resolves once the subscription is active: what is published after that reaches `handler`. */
  subscribe(channel: string, handler: LiveBusHandler): Promise<LiveBusUnsubscribe>;
  /** Stops every subscription and closes connections (app shutdown). */
  close(): Promise<void>;
}
