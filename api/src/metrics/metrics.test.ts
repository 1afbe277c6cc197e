// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the metrics and request ids.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../test/support/test-app.js';

// The api listening on loopback, as Prometheus and the shell server reach it.
describe('api observability', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await createTestApp();
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  it('GET /metrics: request durations by route and status, and the open sockets gauge', async () => {
    await fetch(`${base}/health`);
    const res = await fetch(`${base}/metrics`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    assert.match(text, /# TYPE http_request_duration_seconds histogram/);
    const health = text.split('\n').find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes('route="/health"'));
    assert.ok(health, 'a duration series for /health');
    assert.match(health, /method="GET"/);
    assert.match(health, /status_code="200"/);
    assert.match(health, /service="api"/);
    assert.match(text, /^http_request_duration_seconds_bucket\{le="0\.005",.*route="\/health"/m);
    assert.match(text, /# TYPE http_open_sockets gauge/);
    // fetch keeps its connection alive: this very request is on an open socket.
    const open = Number(/^http_open_sockets\{service="api"\} (\d+)$/m.exec(text)?.[1]);
    assert.ok(open >= 1, `open sockets ${open}`);
    // The live socket counts its operations here (live-sheets.test checks the count).
    assert.match(text, /# TYPE live_operations_total counter/);
  });

  it('each reply names its request id: the caller’s when plain, else a fresh one', async () => {
    const given = await fetch(`${base}/health`, { headers: { 'x-request-id': 'shell-7f3a.1' } });
    assert.equal(given.headers.get('x-request-id'), 'shell-7f3a.1');
    const fresh = await fetch(`${base}/health`);
    assert.match(String(fresh.headers.get('x-request-id')), /^[0-9a-f-]{36}$/);
    const forged = await fetch(`${base}/health`, { headers: { 'x-request-id': 'a b\tinjected' } });
    assert.match(String(forged.headers.get('x-request-id')), /^[0-9a-f-]{36}$/);
    const refused = await fetch(`${base}/api/v1/users`, { headers: { 'x-request-id': 'r-401' } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('x-request-id'), 'r-401');
  });
});
