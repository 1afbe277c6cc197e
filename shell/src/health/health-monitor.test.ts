import { createOpenClient } from '@tessera/contracts';
import { gate, startLoopbackServer, type LoopbackServer } from '../test/loopback-server.js';
import { checkHealth, startHealthMonitor } from './health-monitor.js';

let server: LoopbackServer | undefined;
const held = gate();
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => held.open());

describe('health monitor', () => {
  it('reports service, url, status, lastCheck and responseTime of a healthy service', async () => {
    server = await startLoopbackServer({ 'GET /health': () => ({ body: { service: 'api', status: 'healthy', version: '0.1.0', uptime_s: 3 } }) });
    let t = 1_000;
    const status = await checkHealth(createOpenClient(server.url), { service: 'api', path: '/health' }, {
      origin: 'http://localhost:3000',
      now: () => (t += 7),
    });
    expect(status).toEqual({
      service: 'api',
      url: 'http://localhost:3000/health',
      status: 'healthy',
      lastCheck: new Date(1_014).toISOString(),
      responseTime: 7,
    });
  });

  it("keeps the ai-middleware's code-runner engine and packages from its body, for About", async () => {
    const codeRunner = { engine: 'gvisor', packages: { pandas: '1.5.3' } };
    server = await startLoopbackServer({ 'GET /ai/health': () => ({ body: { service: 'ai-middleware', status: 'healthy', version: '0.1.0', uptime_s: 3, code_runner: codeRunner } }) });
    const status = await checkHealth(createOpenClient(server.url), { service: 'ai-middleware', path: '/ai/health' }, { origin: server.url });
    expect(status.codeRunner).toEqual(codeRunner);
  });

  it('is unhealthy on an error reply, a self-reported failure, or no reply within the timeout', async () => {
    server = await startLoopbackServer({
      'GET /ai/health': () => ({ status: 503, body: { error: { code: 'internal_error', message: 'down' } } }),
      'GET /sick': () => ({ body: { status: 'unhealthy' } }),
      'GET /slow': () => ({ body: { status: 'healthy' }, hold: held.promise }),
    });
    const http = createOpenClient(server.url);
    const check = (path: string) => checkHealth(http, { service: 'x', path }, { origin: server!.url, timeoutMs: 50 });
    expect((await check('/ai/health')).status).toBe('unhealthy');
    expect((await check('/sick')).status).toBe('unhealthy');
    expect((await check('/slow')).status).toBe('unhealthy');
  });

  it('checks each target at once and again on every interval until stopped', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const seen: string[] = [];
      const http = { get: async (path: string) => ({ data: { status: 'healthy', path } }) } as never;
      const stop = startHealthMonitor(http, (s) => seen.push(s.service), {
        intervalMs: 30_000,
        origin: 'http://localhost:3000',
        targets: [
          { service: 'api', path: '/health' },
          { service: 'ai-middleware', path: '/ai/health' },
        ],
      });
      await jest.advanceTimersByTimeAsync(0);
      expect(seen).toEqual(['api', 'ai-middleware']);
      await jest.advanceTimersByTimeAsync(30_000);
      expect(seen).toHaveLength(4);
      stop();
      await jest.advanceTimersByTimeAsync(60_000);
      expect(seen).toHaveLength(4);
    } finally {
      jest.useRealTimers();
    }
  });
});
