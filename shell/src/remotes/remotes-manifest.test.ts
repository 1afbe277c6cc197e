import { fetchRemotesManifest } from './remotes-manifest.js';

const response = (status: number, body: unknown) =>
  ({ ok: status >= 200 && status < 300, status, json: async () => body }) as Response;

describe('remotes manifest', () => {
  it('is read with no cache and validated', async () => {
    const fetchFn = jest.fn(async () =>
      response(200, { remotes: { 'mfe-chat': { live: { version: '0.1.0', manifest: 'http://localhost:3002/0.1.0/mf-manifest.json' } } } }),
    );
    const manifest = await fetchRemotesManifest(fetchFn as unknown as typeof fetch);
    expect(manifest.remotes['mfe-chat']?.live.version).toBe('0.1.0');
    expect(fetchFn).toHaveBeenCalledWith('/remotes.json', expect.objectContaining({ cache: 'no-store' }));
  });

  it('rejects an invalid file and a failed reply', async () => {
    await expect(
      fetchRemotesManifest((async () => response(200, { remotes: { 'mfe-x': {} } })) as unknown as typeof fetch),
    ).rejects.toThrow();
    await expect(fetchRemotesManifest((async () => response(503, {})) as unknown as typeof fetch)).rejects.toThrow('503');
  });
});
