// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the metrics.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestIssuer, type TestIssuer } from '../../test/helpers/jwks-server.js';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.js';

// The ai-middleware listening on loopback, as Prometheus and the shell server reach it.
describe('ai-middleware observability', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let base: string;
  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  test('GET /metrics: request durations by route and status, and the open sockets gauge', async () => {
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
    assert.match(health, /service="ai-middleware"/);
    const open = Number(/^http_open_sockets\{service="ai-middleware"\} (\d+)$/m.exec(text)?.[1]);
    assert.ok(open >= 1, `open sockets ${open}`);
    // The code runner times its jobs here (hybrid-forward.test checks the counts); the solver's
    // metrics belong to a feature not built yet.
    assert.match(text, /# TYPE code_runner_job_duration_seconds histogram/);
    assert.doesNotMatch(text, /solver/);
  });

  test('each reply names its request id, a refused one included', async () => {
    const given = await fetch(`${base}/health`, { headers: { 'x-request-id': 'shell-42' } });
    assert.equal(given.headers.get('x-request-id'), 'shell-42');
    const fresh = await fetch(`${base}/health`, { headers: { 'x-request-id': 'x'.repeat(200) } });
    assert.match(String(fresh.headers.get('x-request-id')), /^[0-9a-f-]{36}$/);
    const refused = await fetch(`${base}/whoami`, { headers: { 'x-request-id': 'r-401' } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('x-request-id'), 'r-401');
  });
});
