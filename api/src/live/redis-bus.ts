import type { LiveBus, LiveBusHandler, LiveBusUnsubscribe } from './live-bus.js';
import type { RedisConnections } from './redis-connection.js';

interface ChannelState {
  handlers: Set<LiveBusHandler>;
  /** The SUBSCRIBE of this channel; later subscribers of the same channel wait for it too. */
  ready: Promise<unknown>;
}

/**
 * The live bus over Redis pub/sub (REDIS_URL): one Redis channel per bus channel, prefixed with
 * the deployment's namespace. One SUBSCRIBE per channel however many local subscribers; the
 * UNSUBSCRIBE goes when the last one leaves. Redis delivers one connection's publications in
 * order, so one process's messages on a channel stay in order.
 */
export class RedisLiveBus implements LiveBus {
  readonly kind = 'redis';
  readonly #channels = new Map<string, ChannelState>();

  constructor(
    private readonly redis: RedisConnections,
    private readonly namespace: string,
    private readonly onHandlerError: (err: unknown, channel: string) => void = () => {},
  ) {
    redis.subscriber.on('message', (redisChannel: string, text: string) => {
      if (!redisChannel.startsWith(this.namespace)) return;
      const channel = redisChannel.slice(this.namespace.length);
      const state = this.#channels.get(channel);
      if (!state) return;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch (err) {
        this.onHandlerError(err, channel);
        return;
      }
      for (const handler of state.handlers) {
        try {
          handler(message);
        } catch (err) {
          this.onHandlerError(err, channel);
        }
      }
    });
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.redis.commands.publish(this.namespace + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: LiveBusHandler): Promise<LiveBusUnsubscribe> {
    const entry: LiveBusHandler = (message) => handler(message);
    let state = this.#channels.get(channel);
    if (!state) {
      state = { handlers: new Set(), ready: this.redis.subscriber.subscribe(this.namespace + channel) };
      this.#channels.set(channel, state);
    }
    state.handlers.add(entry);
    const subscribed = state;
    try {
      await subscribed.ready;
    } catch (err) {
      subscribed.handlers.delete(entry);
      if (subscribed.handlers.size === 0 && this.#channels.get(channel) === subscribed) this.#channels.delete(channel);
      throw err;
    }
    return async () => {
      if (!subscribed.handlers.delete(entry)) return;
      if (subscribed.handlers.size > 0 || this.#channels.get(channel) !== subscribed) return;
      this.#channels.delete(channel);
      // Commands on one connection run in order: a SUBSCRIBE issued after this one wins.
      await this.redis.subscriber.unsubscribe(this.namespace + channel).catch(() => {});
    };
  }

  async close(): Promise<void> {
    this.#channels.clear();
  }
}
