import type { LiveBus, LiveBusHandler, LiveBusUnsubscribe } from './live-bus.js';

/**
 * The live bus of a single api process (no REDIS_URL). Delivery is asynchronous (a microtask
 * after `publish`), like the Redis bus, so that publishers never run subscribers re-entrantly;
 * microtasks keep publication order.
 */
export class MemoryLiveBus implements LiveBus {
  readonly kind = 'memory';
  readonly #channels = new Map<string, Set<LiveBusHandler>>();

  constructor(private readonly onHandlerError: (err: unknown, channel: string) => void = () => {}) {}

  async publish(channel: string, message: unknown): Promise<void> {
    queueMicrotask(() => {
      for (const handler of this.#channels.get(channel) ?? []) {
        try {
          handler(message);
        } catch (err) {
          this.onHandlerError(err, channel);
        }
      }
    });
  }

  async subscribe(channel: string, handler: LiveBusHandler): Promise<LiveBusUnsubscribe> {
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const entry: LiveBusHandler = (message) => handler(message);
    let handlers = this.#channels.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.#channels.set(channel, handlers);
    }
    handlers.add(entry);
    return async () => {
      const current = this.#channels.get(channel);
      if (!current?.delete(entry)) return;
      if (current.size === 0) this.#channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.#channels.clear();
  }
}
