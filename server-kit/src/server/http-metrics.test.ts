import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { EVENT_LOOP_MONITORING_PRECISION_MS, installHttpMetrics } from './http-metrics.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const gauge = (body: string, name: string) => Number(new RegExp(`^${name}\\{service="test"\\} (\\S+)$`, 'm').exec(body)?.[1]);

describe('installHttpMetrics', () => {
  it('samples the event loop delay every EVENT_LOOP_MONITORING_PRECISION_MS (not every 10 ms) and still measures a stall', async () => {
    const app = Fastify();
    const register = installHttpMetrics(app, 'test');
    try {
      await sleep(2.5 * EVENT_LOOP_MONITORING_PRECISION_MS);
      const stall = 3 * EVENT_LOOP_MONITORING_PRECISION_MS;
      const until = Date.now() + stall;
      while (Date.now() < until);
      await sleep(1.5 * EVENT_LOOP_MONITORING_PRECISION_MS);
      const res = await app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(res.statusCode, 200);
      // The histogram holds the time between samples: idle, the sampling interval.
      const min = gauge(res.body, 'nodejs_eventloop_lag_min_seconds');
      assert.ok(min >= (0.9 * EVENT_LOOP_MONITORING_PRECISION_MS) / 1000 && EVENT_LOOP_MONITORING_PRECISION_MS >= 100, `sampled every ${min} s`);
      const max = gauge(res.body, 'nodejs_eventloop_lag_max_seconds');
      assert.ok(max >= stall / 1000, `the stall is measured (max ${max} s)`);
    } finally {
      register.clear();
      await app.close();
    }
  });
});
