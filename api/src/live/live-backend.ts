import crypto from 'node:crypto';
import type { LiveBus } from './live-bus.js';
import { MemoryLiveBus } from './memory-bus.js';
import { MemoryPresenceStore } from './memory-presence.js';
import type { PresenceStore } from './presence-store.js';
import { RedisLiveBus } from './redis-bus.js';
import { openRedis, type RedisLog } from './redis-connection.js';
import { RedisPresenceStore } from './redis-presence.js';

/**
 * What the live features share between api processes: the bus (messages) and the presence
 * store (who is where). In this process's memory without REDIS_URL, in Redis with it.
 * Built once per app in app.ts (`services.live`); closed with the app.
 */
export interface LiveBackend {
  bus: LiveBus;
  presence: PresenceStore;
  /** This process start's id (unique): tells this process's own publications apart. */
  processId: string;
  close(): Promise<void>;
}

export interface LiveBackendOptions {
  redisUrl?: string;
  /** Identifies the deployment's database (see liveNamespace). */
  databaseIdentity: string;
  /** How long a process's presence entries live without renewal (a few heartbeats). */
  presenceTtlMs: number;
  log: RedisLog & { error(obj: object, msg: string): void };
}

export async function openLiveBackend(options: LiveBackendOptions): Promise<LiveBackend> {
  const processId = crypto.randomUUID();
  const onHandlerError = (err: unknown, channel: string) => options.log.error({ err, channel }, 'live bus handler failed');
  if (!options.redisUrl) {
    const bus = new MemoryLiveBus(onHandlerError);
    const presence = new MemoryPresenceStore();
    return { bus, presence, processId, close: async () => void (await Promise.all([bus.close(), presence.close()])) };
  }
  const redis = await openRedis(options.redisUrl, options.log);
  const namespace = liveNamespace(options.databaseIdentity);
  const bus = new RedisLiveBus(redis, namespace, onHandlerError);
  const presence = new RedisPresenceStore(redis, namespace, processId, options.presenceTtlMs);
  return {
    bus,
    presence,
    processId,
    close: async () => {
      await Promise.all([bus.close(), presence.close()]);
      await redis.close();
    },
  };
}

/**
 * The prefix of every Redis key and channel: api processes on the same database share live
 * state; another database (another deployment, another test) on the same Redis does not see it.
 */
export function liveNamespace(databaseIdentity: string): string {
  return `tessera:${crypto.createHash('sha256').update(databaseIdentity).digest('hex').slice(0, 16)}:`;
}
