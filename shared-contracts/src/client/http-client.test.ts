import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthSession } from './auth-session.js';
import { createHttpClient } from './http-client.js';

function fakeJwt(sub: string, expInS = 900): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'EdDSA' })}.${enc({ sub, username: sub, role: 'user', exp: Math.floor(Date.now() / 1000) + expInS, jti: Math.random() })}.sig`;
}

/** A real HTTP server on loopback standing in for the api's auth behaviour. */
async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('http client refresh', () => {
  it('refreshes once on a 401 and repeats the request with the new token', async () => {
    const fresh = fakeJwt('u1');
    let refreshes = 0;
    const seenAuth: string[] = [];
    const srv = await startServer((req, res) => {
      if (req.url === '/api/v1/auth/refresh') {
        refreshes++;
        return json(res, 200, { access_token: fresh });
      }
      seenAuth.push(String(req.headers.authorization));
      if (req.headers.authorization === `Bearer ${fresh}`) return json(res, 200, { ok: true });
      return json(res, 401, { error: { code: 'unauthorized', message: 'expired' } });
    });
    try {
      const session = createAuthSession({ refreshUrl: `${srv.url}/api/v1/auth/refresh` });
      session.setToken(fakeJwt('u1'));
      const client = createHttpClient(session, srv.url);
      const res = await client.get('/api/v1/users');
      expect(res.data).toEqual({ ok: true });
      expect(refreshes).toBe(1);
      expect(seenAuth).toHaveLength(2);
      expect(session.token()).toBe(fresh);
    } finally {
      await srv.close();
    }
  });

  it('shares one refresh between concurrent 401s', async () => {
    const fresh = fakeJwt('u2');
    let refreshes = 0;
    const srv = await startServer((req, res) => {
      if (req.url === '/api/v1/auth/refresh') {
        refreshes++;
        return setTimeout(() => json(res, 200, { accessToken: fresh }), 30);
      }
      if (req.headers.authorization === `Bearer ${fresh}`) return json(res, 200, { ok: req.url });
      return json(res, 401, {});
    });
    try {
      const session = createAuthSession({ refreshUrl: `${srv.url}/api/v1/auth/refresh` });
      session.setToken(fakeJwt('u2'));
      const client = createHttpClient(session, srv.url);
      const results = await Promise.all(['/a', '/b', '/c'].map((p) => client.get(p)));
      expect(results.map((r) => r.data.ok)).toEqual(['/a', '/b', '/c']);
      expect(refreshes).toBe(1);
    } finally {
      await srv.close();
    }
  });

  it('signs out when the 401 persists after the refresh, without a second refresh', async () => {
    let refreshes = 0;
    let requests = 0;
    const srv = await startServer((req, res) => {
      if (req.url === '/api/v1/auth/refresh') {
        refreshes++;
        return json(res, 200, { access_token: fakeJwt('u3') });
      }
      requests++;
      return json(res, 401, {});
    });
    try {
      const session = createAuthSession({ refreshUrl: `${srv.url}/api/v1/auth/refresh` });
      session.setToken(fakeJwt('u3'));
      const signedOut: unknown[] = [];
      session.subscribe((u) => signedOut.push(u));
      const client = createHttpClient(session, srv.url);
      await expect(client.get('/x')).rejects.toMatchObject({ response: { status: 401 } });
      expect(refreshes).toBe(1);
      expect(requests).toBe(2);
      expect(session.token()).toBeNull();
      expect(signedOut.at(-1)).toBeNull();
    } finally {
      await srv.close();
    }
  });

  it('signs out when the refresh itself fails', async () => {
    const srv = await startServer((req, res) => {
      if (req.url === '/api/v1/auth/refresh') return json(res, 401, { error: { code: 'unauthorized', message: 'x' } });
      return json(res, 401, {});
    });
    try {
      const session = createAuthSession({ refreshUrl: `${srv.url}/api/v1/auth/refresh` });
      session.setToken(fakeJwt('u4'));
      const client = createHttpClient(session, srv.url);
      await expect(client.get('/x')).rejects.toBeTruthy();
      expect(session.token()).toBeNull();
    } finally {
      await srv.close();
    }
  });

  it('does not refresh on other errors', async () => {
    let refreshes = 0;
    const srv = await startServer((req, res) => {
      if (req.url === '/api/v1/auth/refresh') refreshes++;
      return json(res, 403, {});
    });
    try {
      const session = createAuthSession({ refreshUrl: `${srv.url}/api/v1/auth/refresh` });
      session.setToken(fakeJwt('u5'));
      const client = createHttpClient(session, srv.url);
      await expect(client.get('/x')).rejects.toMatchObject({ response: { status: 403 } });
      expect(refreshes).toBe(0);
      expect(session.token()).not.toBeNull();
    } finally {
      await srv.close();
    }
  });
});

const memory = (init: Record<string, string>) => {
  const m = new Map(Object.entries(init));
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    has: (k: string) => m.has(k),
  };
};

describe('two tabs sharing storage', () => {
  it('a tab whose token went stale adopts the token another tab refreshed, spending no second refresh', async () => {
    let refreshes = 0;
    const fresh = fakeJwt('tabs');
    const srv = await startServer((req, res) => {
      if (req.url === '/api/v1/auth/refresh') {
        refreshes++;
        return json(res, 200, { access_token: fresh });
      }
      return json(res, req.headers.authorization === `Bearer ${fresh}` ? 200 : 401, { ok: true });
    });
    try {
      const storage = memory({ auth_token: fakeJwt('tabs') });
      const tabA = createAuthSession({ refreshUrl: `${srv.url}/api/v1/auth/refresh`, storage });
      const tabB = createAuthSession({ refreshUrl: `${srv.url}/api/v1/auth/refresh`, storage });
      await createHttpClient(tabA, srv.url).get('/a');
      const res = await createHttpClient(tabB, srv.url).get('/b');
      expect(res.status).toBe(200);
      expect(refreshes).toBe(1);
      expect(tabB.token()).toBe(fresh);
    } finally {
      await srv.close();
    }
  });
});

describe('auth session start-up', () => {
  it('restores a live stored token', () => {
    const t = fakeJwt('alice');
    const storage = memory({ auth_token: t });
    const s = createAuthSession({ refreshUrl: 'http://127.0.0.1:1/r', storage });
    expect(s.user()).toEqual({ id: 'alice', username: 'alice', role: 'user' });
  });

  it('removes an expired or undecodable stored token', () => {
    for (const bad of [fakeJwt('bob', -10), 'not-a-jwt', 'a.b.c']) {
      const storage = memory({ auth_token: bad });
      const s = createAuthSession({ refreshUrl: 'http://127.0.0.1:1/r', storage });
      expect(s.token()).toBeNull();
      expect(storage.has('auth_token')).toBe(false);
    }
  });
});
