import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ErrorBodySchema, RemotesManifestSchema } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { buildServer } from './app.js';
import { type Fixture, INDEX_HTML, REMOTE_VERSIONS, createFixture } from './test/fixtures.js';
import { type Upstream, startUpstream } from './test/upstreams.js';

/** Opens a socket through the shell server and returns the first echoed message. */
async function echoThroughSocket(url: string, message: string): Promise<string> {
  const ws = new WebSocket(url);
  try {
    return await new Promise<string>((resolve, reject) => {
      ws.once('open', () => ws.send(message));
      ws.once('message', (data) => resolve(data.toString()));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
      ws.once('error', reject);
    });
  } finally {
    ws.terminate();
  }
}

describe('shell server', () => {
  let fixture: Fixture;
  let api: Upstream;
  let ai: Upstream;
  let app: FastifyInstance;
  let base: string;

  before(async () => {
    fixture = await createFixture();
    api = await startUpstream('api');
    ai = await startUpstream('ai');
    app = await buildServer({
      host: '127.0.0.1',
      port: 0,
      apiUrl: api.url,
      aiUrl: ai.url,
      remotesFile: fixture.remotesFile,
      distDir: fixture.distDir,
      repoRoot: fixture.repoRoot,
      logLevel: 'silent',
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await app?.close();
    await api?.close();
    await ai?.close();
    await fixture?.cleanup();
  });

  describe('remotes.json', () => {
    test('a missing file is generated from the remotes package versions, written, and served no-cache', async () => {
      const res = await fetch(`${base}/remotes.json`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const body = RemotesManifestSchema.parse(await res.json());
      assert.deepEqual(body, {
        remotes: {
          'mfe-sheets': { live: { version: '0.1.0', manifest: 'http://localhost:3001/0.1.0/mf-manifest.json' } },
          'mfe-chat': { live: { version: '0.2.0', manifest: 'http://localhost:3002/0.2.0/mf-manifest.json' } },
          'mfe-git': { live: { version: '1.0.0', manifest: 'http://localhost:3003/1.0.0/mf-manifest.json' } },
          'mfe-members': { live: { version: '0.1.3', manifest: 'http://localhost:3004/0.1.3/mf-manifest.json' } },
        },
      });
      assert.equal(Object.keys(body.remotes).length, Object.keys(REMOTE_VERSIONS).length);
      assert.deepEqual(JSON.parse(await readFile(fixture.remotesFile, 'utf8')), body);
    });

    test('an edit by ops is served on the next request, and its new origin enters the CSP', async () => {
      const manifest = JSON.parse(await readFile(fixture.remotesFile, 'utf8'));
      manifest.remotes['mfe-chat'] = {
        live: { version: '0.3.0', manifest: 'https://cdn.example.com:8443/mfe-chat/0.3.0/mf-manifest.json' },
        previous: { version: '0.2.0', manifest: 'http://localhost:3002/0.2.0/mf-manifest.json' },
      };
      await writeFile(fixture.remotesFile, JSON.stringify(manifest));
      const res = await fetch(`${base}/remotes.json`);
      assert.equal(RemotesManifestSchema.parse(await res.json()).remotes['mfe-chat']?.live.version, '0.3.0');
      const csp = (await fetch(`${base}/login`)).headers.get('content-security-policy') ?? '';
      const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
      assert.match(scriptSrc, /https:\/\/cdn\.example\.com:8443/);
      assert.match(scriptSrc, /http:\/\/localhost:3002/);
    });

    test('a canary is served as written, its origin enters the CSP, and a canary of the live version is refused', async () => {
      const good = await readFile(fixture.remotesFile, 'utf8');
      try {
        const manifest = JSON.parse(good);
        const live = manifest.remotes['mfe-chat'].live;
        manifest.remotes['mfe-chat'].canary = {
          version: '0.4.0',
          manifest: 'http://canary.example:3102/0.4.0/mf-manifest.json',
          percent: 100,
          userIds: ['u-1'],
        };
        await writeFile(fixture.remotesFile, JSON.stringify(manifest));
        const res = await fetch(`${base}/remotes.json`);
        assert.equal(res.headers.get('cache-control'), 'no-cache');
        assert.deepEqual(RemotesManifestSchema.parse(await res.json()).remotes['mfe-chat']?.canary?.userIds, ['u-1']);
        const csp = (await fetch(`${base}/login`)).headers.get('content-security-policy') ?? '';
        for (const directive of ['script-src', 'connect-src']) {
          assert.match(csp.split(';').find((d) => d.trim().startsWith(directive)) ?? '', /http:\/\/canary\.example:3102/);
        }

        manifest.remotes['mfe-chat'].canary = { ...live, percent: 10 };
        await writeFile(fixture.remotesFile, JSON.stringify(manifest));
        const refused = await fetch(`${base}/remotes.json`);
        assert.equal(refused.status, 500);
        assert.match(ErrorBodySchema.parse(await refused.json()).error.message, /the canary must be another version than the live one/);
      } finally {
        await writeFile(fixture.remotesFile, good);
      }
    });

    test('an invalid file answers 500 with a clear error body, and the server keeps serving', async () => {
      const good = await readFile(fixture.remotesFile, 'utf8');
      try {
        await writeFile(fixture.remotesFile, JSON.stringify({ remotes: { 'mfe-sheets': { live: { version: '1.0.0', manifest: 'not a url' } } } }));
        const res = await fetch(`${base}/remotes.json`);
        assert.equal(res.status, 500);
        const body = ErrorBodySchema.parse(await res.json());
        assert.match(body.error.message, /Invalid remotes manifest: .*remotes\.mfe-sheets\.live\.manifest/);

        await writeFile(fixture.remotesFile, '{ not json');
        const broken = await fetch(`${base}/remotes.json`);
        assert.equal(broken.status, 500);
        assert.match(ErrorBodySchema.parse(await broken.json()).error.message, /is not valid JSON/);

        // The page itself still loads (the remotes will show their fallback cards).
        const page = await fetch(`${base}/`);
        assert.equal(page.status, 200);
        assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      } finally {
        await writeFile(fixture.remotesFile, good);
      }
      assert.equal((await fetch(`${base}/remotes.json`)).status, 200);
    });
  });

  describe('security headers', () => {
    test('the CSP names self, the remotes origins, blob workers, inline styles and no framing', async () => {
      const res = await fetch(`${base}/`);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(
        csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
          const [name, ...values] = d.split(/\s+/);
          return [name, values];
        }),
      );
      const remotes = ['http://localhost:3001', 'http://localhost:3003', 'http://localhost:3004'];
      assert.deepEqual(directives['default-src'], ["'self'"]);
      for (const origin of remotes) {
        assert.ok(directives['script-src'].includes(origin), `script-src has ${origin}`);
        assert.ok(directives['connect-src'].includes(origin), `connect-src has ${origin}`);
        assert.ok(directives['font-src'].includes(origin), `font-src has ${origin}`);
      }
      assert.ok(directives['script-src'].includes("'self'"));
      assert.ok(!directives['script-src'].includes("'unsafe-inline'"));
      assert.deepEqual(directives['worker-src'], ["'self'", 'blob:']);
      assert.ok(directives['style-src'].includes("'unsafe-inline'"));
      const host = new URL(base).host;
      assert.ok(directives['connect-src'].includes(`ws://${host}`));
      assert.ok(directives['connect-src'].includes(`wss://${host}`));
      assert.deepEqual(directives['img-src'], ["'self'", 'data:', 'blob:']);
      assert.deepEqual(directives['frame-ancestors'], ["'none'"]);
      assert.ok(!('upgrade-insecure-requests' in directives));
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    });
  });

  describe('the built shell', () => {
    test('/ is index.html, revalidated on every load', async () => {
      const res = await fetch(`${base}/`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      assert.equal(await res.text(), INDEX_HTML);
    });

    test('hashed chunks are cached for a year, unhashed files revalidated', async () => {
      const chunk = await fetch(`${base}/main.0123456789.js`);
      assert.equal(chunk.status, 200);
      assert.equal(chunk.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(await chunk.text(), 'console.log("shell")');
      const icon = await fetch(`${base}/favicon.svg`);
      assert.equal(icon.status, 200);
      assert.equal(icon.headers.get('cache-control'), 'no-cache');
    });

    test('react-router pages fall back to index.html, no-cache; plain GET /sheets/x never reaches the api', async () => {
      const before = api.requests.length;
      for (const page of ['/login', '/signup', '/settings', '/sheets', '/sheets/abc-123?tab=git', '/sheets/abc/deeper']) {
        const res = await fetch(`${base}${page}`, { headers: { accept: 'text/html' } });
        assert.equal(res.status, 200, page);
        assert.equal(res.headers.get('cache-control'), 'no-cache', page);
        assert.equal(await res.text(), INDEX_HTML, page);
      }
      assert.equal(api.requests.length, before);
    });

    test('a missing asset is a 404 in the error shape, not index.html', async () => {
      const res = await fetch(`${base}/main.ffffffffff.js`);
      assert.equal(res.status, 404);
      ErrorBodySchema.parse(await res.json());
      // Nothing outside dist/ is reachable (the fixture's repo/ folder sits beside it).
      for (const url of ['/..%2frepo%2fmfe-chat%2fpackage.json', '/%2e%2e/repo/mfe-chat/package.json']) {
        const escape = await fetch(`${base}${url}`);
        assert.doesNotMatch(await escape.text(), /@tessera\/mfe-chat/, url);
      }
    });
  });

  describe('proxies', () => {
    test('/api/v1/* goes to the api with path, query, method, body and cookies intact', async () => {
      const res = await fetch(`${base}/api/v1/auth/login?x=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: 'tessera_refresh=abc' },
        body: JSON.stringify({ username: 'a', password: 'b' }),
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-upstream'), 'api');
      const seen = api.requests.at(-1)!;
      assert.equal(seen.method, 'POST');
      assert.equal(seen.url, '/api/v1/auth/login?x=1');
      assert.deepEqual(JSON.parse(seen.body), { username: 'a', password: 'b' });
      assert.equal(seen.headers.cookie, 'tessera_refresh=abc');
      assert.equal(seen.headers['x-forwarded-proto'], 'http');
    });

    test('/api/docs (the API reference page) and its assets go to the api, read-only', async () => {
      for (const url of ['/api/docs', '/api/docs/swagger-ui.css']) {
        const res = await fetch(`${base}${url}`);
        assert.equal(res.status, 200, url);
        assert.equal(res.headers.get('x-upstream'), 'api', url);
        assert.equal(api.requests.at(-1)!.url, url);
      }
      const post = await fetch(`${base}/api/docs`, { method: 'POST', body: 'x' });
      assert.notEqual(post.headers.get('x-upstream'), 'api');
    });

    test('each request has an id: answered to the browser and passed to the upstream for its logs', async () => {
      const res = await fetch(`${base}/ai/config`);
      const id = res.headers.get('x-request-id') ?? '';
      assert.match(id, /^[0-9a-f-]{36}$/);
      assert.equal(ai.requests.at(-1)?.headers['x-request-id'], id);
      const kept = await fetch(`${base}/api/v1/auth/status`, { headers: { 'x-request-id': 'lb-123' } });
      assert.equal(kept.headers.get('x-request-id'), 'lb-123');
      assert.equal(api.requests.at(-1)?.headers['x-request-id'], 'lb-123');
      assert.match((await fetch(`${base}/remotes.json`)).headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    });

    test('/ai/* goes to the ai-middleware with the /ai prefix stripped', async () => {
      const res = await fetch(`${base}/ai/config?probe=1`, { headers: { authorization: 'Bearer t' } });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { service: 'ai', method: 'GET', url: '/config?probe=1', body: '' });
      assert.equal(ai.requests.at(-1)!.headers.authorization, 'Bearer t');
      const nested = await fetch(`${base}/ai/git/tree`);
      assert.equal(((await nested.json()) as { url: string }).url, '/git/tree');
    });

    test('/health goes to the api, and an upstream 503 passes through once, unretried', async () => {
      const ok = await fetch(`${base}/health`);
      assert.equal(ok.status, 200);
      assert.equal(((await ok.json()) as { url: string }).url, '/health');
      api.status = 503;
      try {
        const before = api.requests.length;
        const down = await fetch(`${base}/health`);
        assert.equal(down.status, 503);
        await down.body?.cancel();
        assert.equal(api.requests.length, before + 1);
      } finally {
        api.status = 200;
      }
    });

    test('WebSocket upgrades on /sheets/:id and /live reach the api with their path and query', async () => {
      const wsBase = base.replace('http:', 'ws:');
      assert.equal(await echoThroughSocket(`${wsBase}/sheets/abc-123?token=t1`, 'hello'), 'api/sheets/abc-123?token=t1:hello');
      assert.equal(await echoThroughSocket(`${wsBase}/live?token=t2`, 'ping'), 'api/live?token=t2:ping');
      assert.deepEqual(api.upgrades.slice(-2), ['/sheets/abc-123?token=t1', '/live?token=t2']);
    });

    test('a token offered as the subprotocol pair reaches the api (as ?token=, beside the query)', async () => {
      const ws = new WebSocket(`${base.replace('http:', 'ws:')}/sheets/s-9?since=4`, ['tessera.bearer', 'tok.en-1']);
      try {
        // The echo comes from the api, so the proxied upgrade has reached it by then.
        const echoed = await new Promise<string>((resolve, reject) => {
          ws.once('open', () => ws.send('hi'));
          ws.once('message', (data) => resolve(data.toString()));
          ws.once('error', reject);
        });
        assert.equal(echoed, 'api/sheets/s-9?since=4&token=tok.en-1:hi');
        assert.equal(ws.protocol, 'tessera.bearer');
      } finally {
        ws.terminate();
      }
      assert.equal(api.upgrades.at(-1), '/sheets/s-9?since=4&token=tok.en-1');
    });

    test('an upgrade on a path that is no socket is refused', async () => {
      const upgradesBefore = api.upgrades.length;
      await assert.rejects(echoThroughSocket(`${base.replace('http:', 'ws:')}/login`, 'x'), /upgrade refused with 404/);
      assert.equal(api.upgrades.length, upgradesBefore);
    });
  });

  describe('when an upstream is down', () => {
    test('the proxy answers 502 in the error shape', async () => {
      const dead = await startUpstream('dead');
      const deadUrl = dead.url;
      await dead.close();
      const fixture2 = await createFixture();
      const app2 = await buildServer({
        host: '127.0.0.1',
        port: 0,
        apiUrl: deadUrl,
        aiUrl: deadUrl,
        remotesFile: fixture2.remotesFile,
        distDir: fixture2.distDir,
        repoRoot: fixture2.repoRoot,
        logLevel: 'silent',
      });
      try {
        for (const url of ['/api/v1/users', '/ai/config']) {
          const res = await app2.inject({ method: 'GET', url });
          assert.equal(res.statusCode, 502, url);
          assert.equal(ErrorBodySchema.parse(res.json()).error.code, 'upstream_unavailable');
        }
      } finally {
        await app2.close();
        await fixture2.cleanup();
      }
    });
  });
});
