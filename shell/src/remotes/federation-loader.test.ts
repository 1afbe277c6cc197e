import type { RemotesManifest } from '@tessera/contracts';
import { createFederationLoader, type FallbackPlugin, type FederationRuntime } from './federation-loader.js';

function Panel() {
  return null;
}

/**
 * A stand-in for the MF runtime that records registrations and fails loads of
 * the entries listed in `down`, calling the registered plugin at onLoad as the
 * real runtime does.
 */
function fakeRuntime(down: Set<string>) {
  const registered = new Map<string, string>();
  const registrations: { name: string; entry: string; force?: boolean }[] = [];
  let plugin: FallbackPlugin | undefined;
  const runtime: FederationRuntime = {
    registerRemotes(remotes, options) {
      for (const r of remotes) {
        registered.set(r.name, r.entry);
        registrations.push({ ...r, force: options?.force });
      }
    },
    registerPlugins(plugins) {
      plugin = plugins[0];
    },
    async loadRemote<T>(id: string): Promise<T | null> {
      const entry = registered.get(id.split('/')[0]) ?? '';
      if (![...down].some((d) => entry.startsWith(d))) return { default: Panel } as T;
      const error = new Error(`RUNTIME-003 ${entry}`);
      const failOver = await plugin?.errorLoadRemote({ id, error, lifecycle: 'onLoad', origin: runtime });
      if (!failOver) throw error;
      return failOver as T;
    },
  };
  return { runtime, registered, registrations, getPlugin: () => plugin };
}

const manifest: RemotesManifest = {
  remotes: {
    'mfe-chat': {
      live: { version: '0.2.0', manifest: 'http://localhost:3002/0.2.0/mf-manifest.json' },
      previous: { version: '0.1.0', manifest: 'http://localhost:3002/0.1.0/mf-manifest.json' },
    },
    'mfe-git': { live: { version: '0.1.0', manifest: 'http://localhost:3003/0.1.0/mf-manifest.json' } },
  },
};

describe('federation loader', () => {
  it('registers every live release from remotes.json by federation name and loads exposed modules', async () => {
    const { runtime, registered } = fakeRuntime(new Set());
    const loader = createFederationLoader(runtime, async () => manifest);
    expect(await loader.load('mfe-git', './GitPanel')).toBe(Panel);
    expect(registered.get('mfe_git')).toBe('http://localhost:3003/0.1.0/mf-manifest.json');
    expect(registered.get('mfe_chat')).toBe('http://localhost:3002/0.2.0/mf-manifest.json');
  });

  it('falls back to the previous release when the live one fails at onLoad', async () => {
    const { runtime, registered } = fakeRuntime(new Set(['http://localhost:3002/0.2.0/']));
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    const loader = createFederationLoader(runtime, async () => manifest);
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(registered.get('mfe_chat')).toBe('http://localhost:3002/0.1.0/mf-manifest.json');
  });

  it('returns nothing at afterResolve (a fallback there breaks the runtime)', async () => {
    const { runtime, getPlugin } = fakeRuntime(new Set());
    const loader = createFederationLoader(runtime, async () => manifest);
    await loader.load('mfe-git', './GitPanel');
    const result = await getPlugin()?.errorLoadRemote({
      id: 'mfe_chat/ChatPanel',
      error: new Error('x'),
      lifecycle: 'afterResolve',
      origin: runtime,
    });
    expect(result).toBeUndefined();
  });

  it('fails when both releases fail, and Retry registers the live release again under a fresh URL', async () => {
    const down = new Set(['http://localhost:3002/']);
    const { runtime, registrations } = fakeRuntime(down);
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const loader = createFederationLoader(runtime, async () => manifest);
    await expect(loader.load('mfe-chat', './ChatPanel')).rejects.toThrow('RUNTIME-003');

    down.clear();
    await loader.retry('mfe-chat');
    const last = registrations.at(-1);
    expect(last).toEqual({ name: 'mfe_chat', entry: 'http://localhost:3002/0.2.0/mf-manifest.json?attempt=1', force: true });
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
  });

  it('reads remotes.json again after a failed read', async () => {
    const { runtime } = fakeRuntime(new Set());
    let reads = 0;
    const loader = createFederationLoader(runtime, async () => {
      reads++;
      if (reads === 1) throw new Error('remotes.json answered 502');
      return manifest;
    });
    await expect(loader.load('mfe-git', './GitPanel')).rejects.toThrow('502');
    await loader.retry('mfe-git');
    expect(await loader.load('mfe-git', './GitPanel')).toBe(Panel);
    expect(reads).toBe(2);
  });

  it('refuses a remote that remotes.json does not list', async () => {
    const { runtime } = fakeRuntime(new Set());
    const loader = createFederationLoader(runtime, async () => manifest);
    await expect(loader.load('mfe-members', './MembersPanel')).rejects.toThrow('not listed');
  });
});

describe('federation loader, concurrent failures', () => {
  it('switches to the previous release once and serves every module that failed on the live one', async () => {
    const { runtime, registrations } = fakeRuntime(new Set(['http://localhost:3002/0.2.0/']));
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    const loader = createFederationLoader(runtime, async () => manifest);
    const [a, b] = await Promise.all([loader.load('mfe-chat', './ChatPanel'), loader.load('mfe-chat', './HeaderStatus')]);
    expect([a, b]).toEqual([Panel, Panel]);
    expect(registrations.filter((r) => r.entry.includes('0.1.0') && r.name === 'mfe_chat')).toHaveLength(1);
  });
});
