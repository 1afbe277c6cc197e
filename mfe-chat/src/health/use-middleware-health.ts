import { HEALTH_CHECK_INTERVAL_MS, HEALTH_CHECK_TIMEOUT_MS, ServiceHealthSchema, type ShellContext } from '@tessera/contracts';
import { useEffect, useState } from 'react';

export type MiddlewareHealth = 'checking' | 'healthy' | 'unavailable';

/**
 * The ai-middleware's GET /health (spec 02 §7), at mount and every 30 s (5 s time-out):
 * sending is allowed only while it answers healthy (spec 02 §8; no legacy mode here).
 */
export function useMiddlewareHealth(ai: ShellContext['ai']): MiddlewareHealth {
  const [health, setHealth] = useState<MiddlewareHealth>('checking');
  useEffect(() => {
    let current = true;
    const controller = new AbortController();
    const check = () =>
      ai.get<unknown>('/health', { timeout: HEALTH_CHECK_TIMEOUT_MS, signal: controller.signal }).then(
        ({ data }) => current && setHealth(ServiceHealthSchema.safeParse(data).data?.status === 'healthy' ? 'healthy' : 'unavailable'),
        () => current && setHealth('unavailable'),
      );
    void check();
    const timer = setInterval(check, HEALTH_CHECK_INTERVAL_MS);
    return () => {
      current = false;
      controller.abort();
      clearInterval(timer);
    };
  }, [ai]);
  return health;
}
