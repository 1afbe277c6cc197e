import { Redis } from 'ioredis';

/** How long the api waits for Redis at start before refusing to start (a wrong REDIS_URL fails fast). */
const CONNECT_TIMEOUT_MS = 5_000;

/** What the log needs (a pino or Fastify logger fits). */
export interface RedisLog {
  warn(obj: object, msg: string): void;
}

/**
 * The two Redis connections of one api process: `commands` (PUBLISH, presence keys, scripts) and
 * `subscriber` (a connection in subscriber mode can run nothing else). ioredis reconnects on its
 * own and re-subscribes the channels; commands issued meanwhile wait in its offline queue.
 */
export interface RedisConnections {
  commands: Redis;
  subscriber: Redis;
  close(): Promise<void>;
}

export async function openRedis(url: string, log: RedisLog): Promise<RedisConnections> {
  const options = { connectTimeout: CONNECT_TIMEOUT_MS, maxRetriesPerRequest: 3 };
  const commands = new Redis(url, { ...options, connectionName: 'tessera-api' });
  const subscriber = new Redis(url, { ...options, connectionName: 'tessera-api-sub' });
  // ioredis emits 'error' on every failed reconnect; without a listener Node prints it as unhandled.
  let warned = 0;
  const onError = (which: string) => (err: Error) => {
    // One line per outage is enough: reconnects retry every few hundred ms.
    if (Date.now() - warned > 10_000) log.warn({ err: err.message, connection: which }, 'Redis connection error (retrying)');
    warned = Date.now();
  };
  commands.on('error', onError('commands'));
  subscriber.on('error', onError('subscriber'));
  const close = async () => {
    await Promise.allSettled([commands.quit(), subscriber.quit()]);
    commands.disconnect();
    subscriber.disconnect();
  };
  try {
    await withTimeout(Promise.all([commands.ping(), subscriber.ping()]), CONNECT_TIMEOUT_MS, `Redis at ${redactUrl(url)} did not answer`);
  } catch (err) {
    await close();
    throw err;
  }
  return { commands, subscriber, close };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'REDIS_URL';
  }
}
