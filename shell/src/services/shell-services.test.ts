import { createShellServices } from './shell-services.js';

describe('shell services http clients', () => {
  const cookieStore = { get: jest.fn(() => new Promise<never>(() => {})) };
  beforeAll(() => Object.defineProperty(window, 'cookieStore', { value: cookieStore, configurable: true }));
  afterAll(() => Reflect.deleteProperty(window, 'cookieStore'));

  // A browser whose cookie store answers late (it answers between tasks) must not hold requests back:
  // this one never answers, so a request that waited for it would never be sent.
  it('sends a request at once, without reading cookies first', async () => {
    // Nothing listens on the page's origin here: jsdom reports the refused connection as an error.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { api, ai } = createShellServices();
    const settled = await Promise.all([api.get('/api/v1/health'), ai.get('/health')].map((r) => r.then(() => 'answered', () => 'failed')));
    expect(settled).toHaveLength(2);
    expect(cookieStore.get).not.toHaveBeenCalled();
    quiet.mockRestore();
  });
});
