import {
  CodeRunnerInfoSchema,
  HEALTH_CHECK_INTERVAL_MS,
  HEALTH_CHECK_TIMEOUT_MS,
  HealthStatusSchema,
  type AxiosInstance,
  type HealthStatus,
} from '@tessera/contracts';

export interface HealthTarget {
  service: string;
  /** Path on the shell's origin; the shell server proxies it to the service. */
  path: string;
}

/** The api's and the ai-middleware's health, through the shell server's proxy. */
export const HEALTH_TARGETS: readonly HealthTarget[] = [
  { service: 'api', path: '/health' },
  { service: 'ai-middleware', path: '/ai/health' },
];

export interface HealthCheckOptions {
  timeoutMs?: number;
  now?: () => number;
  /** Base of the reported url (the page's origin in the browser). */
  origin?: string;
}

/** One check: healthy when the service answers 2xx in time and does not call itself unhealthy. */
export async function checkHealth(
  http: AxiosInstance,
  target: HealthTarget,
  { timeoutMs = HEALTH_CHECK_TIMEOUT_MS, now = Date.now, origin = window.location.origin }: HealthCheckOptions = {},
): Promise<HealthStatus> {
  const started = now();
  let status: HealthStatus['status'] = 'unhealthy';
  let codeRunner: HealthStatus['codeRunner'];
  try {
    const res = await http.get<{ status?: unknown; code_runner?: unknown }>(target.path, { timeout: timeoutMs });
    status = res.data?.status === 'unhealthy' ? 'unhealthy' : 'healthy';
    const runner = CodeRunnerInfoSchema.safeParse(res.data?.code_runner);
    if (runner.success) codeRunner = runner.data;
  } catch {
    status = 'unhealthy';
  }
  const finished = now();
  return HealthStatusSchema.parse({
    service: target.service,
    url: new URL(target.path, origin).href,
    status,
    lastCheck: new Date(finished).toISOString(),
    responseTime: finished - started,
    ...(codeRunner ? { codeRunner } : {}),
  });
}

export interface HealthMonitorOptions extends HealthCheckOptions {
  intervalMs?: number;
  targets?: readonly HealthTarget[];
}

/**
 * Checks every target now and then every 30 s (spec 01 §9), reporting each
 * result as it comes. Returns a function that stops the monitor.
 */
export function startHealthMonitor(
  http: AxiosInstance,
  onStatus: (status: HealthStatus) => void,
  { intervalMs = HEALTH_CHECK_INTERVAL_MS, targets = HEALTH_TARGETS, ...check }: HealthMonitorOptions = {},
): () => void {
  let stopped = false;
  const run = () => {
    for (const target of targets) {
      void checkHealth(http, target, check).then((status) => {
        if (!stopped) onStatus(status);
      });
    }
  };
  run();
  const timer = setInterval(run, intervalMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
