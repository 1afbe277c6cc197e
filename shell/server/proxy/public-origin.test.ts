// Issue 17 §5 and §6 at the shell's public origin: the services' /metrics are never reachable
// through it, and the client address it passes on is one it can vouch for.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { buildServer } from '../app.js';
import { type Fixture, createFixture } from '../test/fixtures.js';
import { type Upstream, startUpstream } from '../test/upstreams.js';
import { reachesMetrics } from './metrics-guard.js';

/** One request written as is (fetch would resolve dot segments and encodings first). */
function rawGet(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.write(`GET ${path} HTTP/1.1\r\nHost: shell.test\r\n${extra}Connection: close\r\n\r\n`);
    });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
  });
}

interface Stack {
  app: FastifyInstance;
  port: number;
  api: Upstream;
  ai: Upstream;
  fixture: Fixture;
}

async function startStack(trustProxy?: string[]): Promise<Stack> {
  const fixture = await createFixture();
  const api = await startUpstream('api');
  const ai = await startUpstream('ai');
  const app = await buildServer({
    host: '127.0.0.1',
    port: 0,
    apiUrl: api.url,
    aiUrl: ai.url,
    remotesFile: fixture.remotesFile,
    distDir: fixture.distDir,
    repoRoot: fixture.repoRoot,
    logLevel: 'silent',
    trustProxy,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as AddressInfo).port, api, ai, fixture };
}

async function stopStack(s: Stack | undefined) {
  await s?.app.close();
  await s?.api.close();
  await s?.ai.close();
  await s?.fixture.cleanup();
}

const METRICS_PATHS = [
  '/metrics',
  '/metrics/',
  '/api/metrics',
  '/ai/metrics',
  '/ai/metrics/',
  '/ai/Metrics',
  '/ai/metrics?format=prometheus',
  '/ai/./metrics',
  '/ai/%2E/metrics',
  '/ai/%6detrics',
  '/ai/%256detrics',
  '/ai/x/../metrics',
  '/ai/metrics;x=1',
  '/ai//metrics',
  '/ai%2fmetrics',
  '/ai\\metrics',
  '/health/../metrics',
  '/health/%2e%2e/metrics',
  '/api/v1/../../metrics',
  '/api/v1/%2e%2e/%2e%2e/metrics',
  '/sheets/../metrics',
];

describe("the shell's public origin", () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => stopStack(s));

  test(`no path reaches a service's /metrics: ${METRICS_PATHS.length} spellings answer 404 and reach no upstream`, async () => {
    for (const path of METRICS_PATHS) {
      const res = await rawGet(s.port, path);
      assert.equal(res.status, 404, `${path}: ${res.status} ${res.body}`);
      assert.equal(JSON.parse(res.body).error.code, 'not_found', path);
    }
    assert.deepEqual([...s.api.requests, ...s.ai.requests].map((r) => r.url), []);
    // What is not /metrics still goes through.
    for (const path of ['/ai/metrics-summary', '/api/v1/sheets/metrics', '/health']) {
      const res = await fetch(`http://127.0.0.1:${s.port}${path}`);
      assert.equal(res.status, 200, path);
      await res.body?.cancel();
    }
  });

  test('an X-Forwarded-For the browser wrote is not passed on: the api gets the peer the shell saw', async () => {
    const res = await fetch(`http://127.0.0.1:${s.port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1', 'x-forwarded-proto': 'https' },
      body: '{}',
    });
    assert.equal(res.status, 200);
    const seen = s.api.requests.at(-1)!;
    assert.equal(seen.headers['x-forwarded-for'], '127.0.0.1');
    assert.equal(seen.headers['x-forwarded-proto'], 'http');
  });

  test('the live sockets carry the same X-Forwarded-For', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/live?token=t`, { headers: { 'x-forwarded-for': '198.51.100.2' } });
    try {
      // The echo comes from the api: the proxied upgrade has reached it by then.
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => ws.send('hi'));
        ws.once('message', () => resolve());
        ws.once('error', reject);
      });
    } finally {
      ws.terminate();
    }
    assert.equal(s.api.upgradeHeaders.at(-1)?.['x-forwarded-for'], '127.0.0.1');
  });
});

describe('behind a proxy the shell trusts (SHELL_TRUST_PROXY)', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(['127.0.0.1']);
  });
  after(() => stopStack(s));

  test("the client that proxy names, and its scheme, reach the api; entries left of it do not", async () => {
    await fetch(`http://127.0.0.1:${s.port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.1, 203.0.113.5', 'x-forwarded-proto': 'https' },
      body: '{}',
    });
    const seen = s.api.requests.at(-1)!;
    assert.equal(seen.headers['x-forwarded-for'], '203.0.113.5');
    assert.equal(seen.headers['x-forwarded-proto'], 'https');
  });
});

describe('the CSP of a shell served over https', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(['127.0.0.1']);
    await mkdir(path.dirname(s.fixture.remotesFile), { recursive: true });
    await writeFile(
      s.fixture.remotesFile,
      JSON.stringify({
        remotes: {
          'mfe-chat': { live: { version: '0.2.0', manifest: 'http://remotes.example:3002/0.2.0/mf-manifest.json' } },
          'mfe-git': { live: { version: '1.0.0', manifest: 'https://cdn.example/mfe-git/1.0.0/mf-manifest.json' } },
        },
      }),
    );
  });
  after(() => stopStack(s));

  const scriptSrc = async (proto: string) => {
    const res = await fetch(`http://127.0.0.1:${s.port}/`, { headers: { 'x-forwarded-proto': proto } });
    await res.body?.cancel();
    return (res.headers.get('content-security-policy') ?? '').split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  };

  test('names no http:// remote origin over https; over http it names both', async () => {
    assert.equal((await scriptSrc('https')).trim(), "script-src 'self' https://cdn.example");
    assert.equal((await scriptSrc('http')).trim(), "script-src 'self' http://remotes.example:3002 https://cdn.example");
  });
});

test('reachesMetrics reads paths as the services would route them', () => {
  for (const path of METRICS_PATHS.filter((p) => p !== '/api/metrics')) assert.equal(reachesMetrics(path), true, path);
  for (const path of ['/', '/ai/config', '/ai/metrics-summary', '/api/v1/metrics', '/sheets/metrics', '/ai/%zz/metrics']) {
    assert.equal(reachesMetrics(path), false, path);
  }
});
