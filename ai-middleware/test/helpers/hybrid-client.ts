import assert from 'node:assert/strict';
import { type HybridResponse, HybridResponseSchema, type HybridStreamEvent, HybridStreamEventSchema } from '@tessera/contracts';
import { after, before } from 'node:test';
import type { AppOverrides } from '../../src/app.js';
import type { AiConfig } from '../../src/config.js';
import { type TestIssuer, startTestIssuer } from './jwks-server.js';
import { type TestApp, startTestApp } from './test-app.js';

/** Reads a whole SSE reply of /hybrid/forward into its events (`data: <json>` blocks), each checked against the contract. */
export async function readHybridEvents(res: Response): Promise<HybridStreamEvent[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => HybridStreamEventSchema.parse(JSON.parse(block.slice('data: '.length))));
}

/** A signed-in user of the service under test, calling /hybrid/forward (and any other route) as the panel does. */
export interface HybridClient {
  post(body: unknown, headers?: Record<string, string>, init?: RequestInit): Promise<Response>;
  /** A JSON reply: 200 and a valid hybrid response. */
  json(body: unknown): Promise<HybridResponse>;
  /** An SSE reply: 200 and its events. */
  stream(body: unknown): Promise<HybridStreamEvent[]>;
  call(method: string, path: string, body?: unknown): Promise<Response>;
}

export async function hybridClient(issuer: TestIssuer, base: string): Promise<HybridClient> {
  const auth = { authorization: `Bearer ${await issuer.sign({ sub: 'user-1', username: 'alice', role: 'user' })}` };
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...init,
    });
  const post = (body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) => call('POST', '/hybrid/forward', body, headers, init);
  return {
    post,
    call: (method, path, body) => call(method, path, body),
    async json(body) {
      const res = await post(body);
      assert.equal(res.status, 200);
      return HybridResponseSchema.parse(await res.json());
    },
    async stream(body) {
      const res = await post(body, { accept: 'text/event-stream' });
      assert.equal(res.status, 200);
      return readHybridEvents(res);
    },
  };
}

/** The service under test as one describe block uses it: a token issuer, the app listening on loopback, a signed-in client. */
export interface HybridApp {
  readonly issuer: TestIssuer;
  readonly app: TestApp;
  readonly api: HybridClient;
}

/**
 * Registers before/after hooks in the calling describe block that start (and close) the issuer
 * and the app with the settings `overrides` gives (a function: a fake model server started in an
 * earlier hook is known by then). The returned handle's fields are set once the hooks ran.
 */
export function useHybridApp(overrides: () => Partial<AiConfig> = () => ({}), appOverrides: AppOverrides = {}): HybridApp {
  const handle = {} as { issuer: TestIssuer; app: TestApp; api: HybridClient };
  before(async () => {
    handle.issuer = await startTestIssuer();
    handle.app = await startTestApp(handle.issuer.apiUrl, overrides(), appOverrides);
    handle.api = await hybridClient(handle.issuer, await handle.app.app.listen({ host: '127.0.0.1', port: 0 }));
  });
  after(async () => {
    await handle.app?.close();
    await handle.issuer?.close();
  });
  return handle;
}
