import { Histogram, type Registry } from 'prom-client';
import { type CodeRunner, STOPPED_ERROR } from './code-runner.js';

/**
 * The runner with its jobs timed on the service's /metrics: `code_runner_job_duration_seconds`
 * by outcome (ok: the code ran; stopped: its client went away and the child was killed; error: it
 * raised, timed out, ran out of memory or could not run).
 */
export function withJobMetrics(runner: CodeRunner, registry: Registry): CodeRunner {
  const duration =
    (registry.getSingleMetric('code_runner_job_duration_seconds') as Histogram<'outcome'> | undefined) ??
    new Histogram({
      name: 'code_runner_job_duration_seconds',
      help: 'Python jobs of the code runner, from the request to the result, by outcome',
      labelNames: ['outcome'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    });
  return {
    ...runner,
    async run(request, options) {
      const end = duration.startTimer();
      try {
        const result = await runner.run(request, options);
        end({ outcome: result.error === STOPPED_ERROR ? 'stopped' : result.error ? 'error' : 'ok' });
        return result;
      } catch (err) {
        end({ outcome: 'error' });
        throw err;
      }
    },
    status: () => runner.status(),
    engine: () => runner.engine(),
    close: () => runner.close(),
  };
}
