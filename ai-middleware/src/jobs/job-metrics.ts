import { Gauge, type Registry } from 'prom-client';
import type { JobScheduler } from './job-scheduler.js';

/** The scheduler on /metrics: `jobs_running{kind}` and `jobs_queued`, read at each scrape. */
export function registerJobMetrics(scheduler: JobScheduler, registry: Registry): void {
  if (registry.getSingleMetric('jobs_running')) return;
  new Gauge({
    name: 'jobs_running',
    help: 'Hybrid jobs holding a slot now, by kind (code: a Pyodide child; solve: a HiGHS worker)',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      const { running } = scheduler.stats();
      this.set({ kind: 'code' }, running.code);
      this.set({ kind: 'solve' }, running.solve);
    },
  });
  new Gauge({
    name: 'jobs_queued',
    help: 'Hybrid jobs waiting for a slot (at most JOB_QUEUE_MAX)',
    registers: [registry],
    collect() {
      this.set(scheduler.stats().queued);
    },
  });
}
