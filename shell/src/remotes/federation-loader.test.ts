// The loader fetches release manifests from a real loopback origin. The Module
// Federation runtime itself is stood in for: it needs a browser to run remote entries.
import http from 'node:http';
import { json, startLoopbackServer } from '@tessera/jest-react/loopback';
import { CONTRACTS_MAJOR, type RemoteName, type RemotesManifest } from '@tessera/contracts';
import { createFederationLoader, type FallbackPlugin, type FederationRuntime } from './federation-loader.js';
import type { RemoteStatus } from './remote-status.store.js';

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

/** A remote's origin on loopback: /<version>/mf-manifest.json declaring what `builds` says. */
async function startOrigin(
  builds: Record<string, { remote?: RemoteName; contractsMajor?: number; publicPath?: string; chakraExports?: string[] } | 'bare'>,
) {
  // The loader fetches over node:http (below), not the page's XHR: no CORS.
  const server = await startLoopbackServer(
    (req, res) => {
      const match = /^\/([^/]+)\/mf-manifest\.json/.exec(req.url);
      const build = match ? builds[match[1]] : undefined;
      if (!match || !build) return json(res, 404);
      const metaData =
        build === 'bare'
          ? { name: 'mfe_chat' }
          : {
              name: 'mfe_chat',
              ...(build.publicPath ? { publicPath: build.publicPath } : {}),
              tessera: {
                remote: build.remote ?? 'mfe-chat',
                version: match[1],
                contractsMajor: build.contractsMajor ?? CONTRACTS_MAJOR,
                ...(build.chakraExports ? { chakraExports: build.chakraExports } : {}),
              },
            };
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      res.end(JSON.stringify({ id: 'mfe_chat', metaData }));
    },
    { cors: false },
  );
  const base = server.url;
  return {
    base,
    release: (version: string) => ({ version, manifest: `${base}/${version}/mf-manifest.json` }),
    close: server.close,
  };
}

/** jsdom has no fetch: the few parts of it the loader uses, over node:http. */
const nodeFetch = ((input: string) =>
  new Promise((resolve, reject) => {
    http
      .get(input, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({ ok: status >= 200 && status < 300, status, json: async () => JSON.parse(body) });
        });
      })
      .on('error', reject);
  })) as unknown as typeof fetch;

type Origin = Awaited<ReturnType<typeof startOrigin>>;
let origin: Origin;
let downBase: string;

beforeAll(async () => {
  origin = await startOrigin({
    '0.1.0': {},
    '0.2.0': {},
    '0.3.0': {},
    '0.9.0': { contractsMajor: CONTRACTS_MAJOR + 1 },
    '0.8.0': { remote: 'mfe-git' },
    '0.0.1': 'bare',
    '0.4.0': { publicPath: 'http://scripts.example/mfe-chat/0.4.0/' },
    '0.5.0': { chakraExports: ['Box', 'Button', 'Dialog'] },
    '0.6.0': { chakraExports: ['Box', 'Slider', 'Accordion'] },
  });
  // An origin that is down: a port that was just free.
  const gone = await startOrigin({});
  downBase = gone.base;
  await gone.close();
});
afterAll(() => origin.close());

beforeEach(() => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

function chat(entry: NonNullable<RemotesManifest['remotes']['mfe-chat']>): RemotesManifest {
  return { remotes: { 'mfe-chat': entry, 'mfe-git': { live: { version: '0.1.0', manifest: `${downBase}/0.1.0/mf-manifest.json` } } } };
}

function setup(manifest: RemotesManifest, down: string[] = [], { shellProtocol = 'http:', fetchFn = nodeFetch } = {}) {
  const fake = fakeRuntime(new Set(down));
  const statuses: Partial<Record<RemoteName, RemoteStatus>> = {};
  const loader = createFederationLoader(fake.runtime, async () => manifest, {
    fetchFn,
    report: (remote, status) => (statuses[remote] = status),
    shellProtocol,
  });
  return { ...fake, loader, statuses };
}

/** The test origin as if it were served over https at SECURE (this fetch maps one onto the other); it records what was fetched. */
const SECURE = 'https://remotes.example';
function secureFetch(fetched: string[]) {
  return ((input: string) => {
    fetched.push(input);
    return nodeFetch(input.startsWith(SECURE) ? origin.base + input.slice(SECURE.length) : input);
  }) as unknown as typeof fetch;
}

describe('federation loader', () => {
  it('registers the live release of a remote when it is first loaded and reports it running', async () => {
    const { loader, registered, statuses } = setup(chat({ live: origin.release('0.2.0'), previous: origin.release('0.1.0') }));
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(registered.get('mfe_chat')).toBe(`${origin.base}/0.2.0/mf-manifest.json`);
    expect(registered.has('mfe_git')).toBe(false);
    expect(statuses['mfe-chat']).toEqual({ status: 'running', release: 'live', version: '0.2.0' });
  });

  it('falls back to the previous release when the live one fails at onLoad', async () => {
    const { loader, registered, statuses } = setup(chat({ live: origin.release('0.2.0'), previous: origin.release('0.1.0') }), [
      `${origin.base}/0.2.0/`,
    ]);
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(registered.get('mfe_chat')).toBe(`${origin.base}/0.1.0/mf-manifest.json`);
    expect(statuses['mfe-chat']).toEqual({ status: 'running', release: 'previous', version: '0.1.0' });
  });

  it("falls back to the previous release when the live one's server is down", async () => {
    const live = { version: '0.3.0', manifest: `${downBase}/0.3.0/mf-manifest.json` };
    const { loader, registrations, statuses } = setup(chat({ live, previous: origin.release('0.1.0') }));
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    // The live release was never handed to the runtime.
    expect(registrations.map((r) => r.entry)).toEqual([`${origin.base}/0.1.0/mf-manifest.json`]);
    expect(statuses['mfe-chat']).toEqual({ status: 'running', release: 'previous', version: '0.1.0' });
  });

  it('refuses a release built against another contracts major, and a build of another remote', async () => {
    const { loader, registrations, statuses } = setup(chat({ live: origin.release('0.9.0'), previous: origin.release('0.1.0') }));
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(registrations.map((r) => r.entry)).toEqual([`${origin.base}/0.1.0/mf-manifest.json`]);
    expect(statuses['mfe-chat']).toMatchObject({ release: 'previous', version: '0.1.0' });

    const other = setup(chat({ live: origin.release('0.8.0') }));
    await expect(other.loader.load('mfe-chat', './ChatPanel')).rejects.toThrow(
      /no release could be loaded \(live 0\.8\.0: .* is a build of mfe-git, not mfe-chat\)/,
    );
    const only = setup(chat({ live: origin.release('0.9.0') }));
    await expect(only.loader.load('mfe-chat', './ChatPanel')).rejects.toThrow(
      `built against contracts major ${CONTRACTS_MAJOR + 1}; this shell runs major ${CONTRACTS_MAJOR}`,
    );
    expect(only.statuses['mfe-chat']).toMatchObject({ status: 'failed' });
  });

  it('refuses a release that uses a Chakra UI export this shell does not provide, and takes one that uses only provided ones', async () => {
    const { loader, registrations, statuses } = setup(chat({ live: origin.release('0.6.0'), previous: origin.release('0.5.0') }));
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(registrations.map((r) => r.entry)).toEqual([`${origin.base}/0.5.0/mf-manifest.json`]);
    expect(statuses['mfe-chat']).toMatchObject({ status: 'running', release: 'previous', version: '0.5.0' });

    const only = setup(chat({ live: origin.release('0.6.0') }));
    await expect(only.loader.load('mfe-chat', './ChatPanel')).rejects.toThrow(
      'mfe-chat 0.6.0 uses Chakra UI exports this shell does not provide: Accordion, Slider',
    );
  });

  it('accepts a build that declares no build info (made before releases declared one)', async () => {
    const { loader, statuses } = setup(chat({ live: origin.release('0.0.1') }));
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(statuses['mfe-chat']).toEqual({ status: 'running', release: 'live', version: '0.0.1' });
  });

  it('fails when every release fails, and Retry starts again from the live release under a fresh URL', async () => {
    const down = new Set([`${origin.base}/`]);
    const fake = fakeRuntime(down);
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const loader = createFederationLoader(fake.runtime, async () => chat({ live: origin.release('0.2.0'), previous: origin.release('0.1.0') }), {
      fetchFn: nodeFetch,
      report: () => {},
    });
    await expect(loader.load('mfe-chat', './ChatPanel')).rejects.toThrow('RUNTIME-003');

    down.clear();
    await loader.retry('mfe-chat');
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(fake.registrations.at(-1)).toEqual({
      name: 'mfe_chat',
      entry: `${origin.base}/0.2.0/mf-manifest.json?attempt=1`,
      force: true,
    });
  });

  it('reads remotes.json again after a failed read', async () => {
    const { runtime } = fakeRuntime(new Set());
    let reads = 0;
    const loader = createFederationLoader(
      runtime,
      async () => {
        reads++;
        if (reads === 1) throw new Error('remotes.json answered 502');
        return chat({ live: origin.release('0.1.0') });
      },
      { fetchFn: nodeFetch, report: () => {} },
    );
    await expect(loader.load('mfe-chat', './ChatPanel')).rejects.toThrow('502');
    await loader.retry('mfe-chat');
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(reads).toBe(2);
  });

  it('refuses a remote that remotes.json does not list, and returns nothing at afterResolve', async () => {
    const { loader, runtime, getPlugin } = setup(chat({ live: origin.release('0.1.0') }));
    await expect(loader.load('mfe-members', './MembersPanel')).rejects.toThrow('not listed');
    await loader.load('mfe-chat', './ChatPanel');
    const result = await getPlugin()?.errorLoadRemote({
      id: 'mfe_chat/ChatPanel',
      error: new Error('x'),
      lifecycle: 'afterResolve',
      origin: runtime,
    });
    expect(result).toBeUndefined();
  });

  it('switches to the previous release once and serves every module that failed on the live one', async () => {
    const { loader, registrations } = setup(chat({ live: origin.release('0.2.0'), previous: origin.release('0.1.0') }), [
      `${origin.base}/0.2.0/`,
    ]);
    const [a, b] = await Promise.all([loader.load('mfe-chat', './ChatPanel'), loader.load('mfe-chat', './HeaderStatus')]);
    expect([a, b]).toEqual([Panel, Panel]);
    expect(registrations.filter((r) => r.entry.includes('/0.1.0/'))).toHaveLength(1);
  });
});

describe('federation loader, on a shell served over https', () => {
  it('refuses a release served over http without fetching it, and falls back to the previous one served over https', async () => {
    const fetched: string[] = [];
    const live = origin.release('0.2.0');
    const previous = { version: '0.1.0', manifest: `${SECURE}/0.1.0/mf-manifest.json` };
    const { loader, registrations, statuses } = setup(chat({ live, previous }), [], { shellProtocol: 'https:', fetchFn: secureFetch(fetched) });
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(fetched).toEqual([previous.manifest]);
    expect(registrations.map((r) => r.entry)).toEqual([previous.manifest]);
    expect(statuses['mfe-chat']).toEqual({ status: 'running', release: 'previous', version: '0.1.0' });
    expect(console.warn).toHaveBeenCalledWith(
      '[shell] mfe-chat live release 0.2.0 is not usable',
      new Error(`${live.manifest} is served over http://, but the shell is served over https://: a remote's scripts must be served over https too`),
    );
  });

  it('with no release over https it fails with the reason (the card with Retry); a manifest over https whose scripts load over http is refused too', async () => {
    const only = setup(chat({ live: origin.release('0.2.0') }), [], { shellProtocol: 'https:', fetchFn: secureFetch([]) });
    await expect(only.loader.load('mfe-chat', './ChatPanel')).rejects.toThrow(
      `mfe-chat: no release could be loaded (live 0.2.0: ${origin.base}/0.2.0/mf-manifest.json is served over http://, but the shell is served over https://`,
    );
    expect(only.registrations).toEqual([]);
    expect(only.statuses['mfe-chat']).toMatchObject({ status: 'failed' });

    const scripts = setup(chat({ live: { version: '0.4.0', manifest: `${SECURE}/0.4.0/mf-manifest.json` } }), [], {
      shellProtocol: 'https:',
      fetchFn: secureFetch([]),
    });
    await expect(scripts.loader.load('mfe-chat', './ChatPanel')).rejects.toThrow(
      'http://scripts.example/mfe-chat/0.4.0/ is served over http://, but the shell is served over https://',
    );
    expect(scripts.registrations).toEqual([]);
  });

  it('on a shell served over http, http releases load as before', async () => {
    const { loader, statuses } = setup(chat({ live: origin.release('0.4.0') }));
    expect(await loader.load('mfe-chat', './ChatPanel')).toBe(Panel);
    expect(statuses['mfe-chat']).toMatchObject({ status: 'running', version: '0.4.0' });
  });
});

describe('federation loader, canary', () => {
  const manifest = (userIds?: string[], percent = 100) =>
    chat({ live: origin.release('0.2.0'), previous: origin.release('0.1.0'), canary: { ...origin.release('0.3.0'), percent, userIds } });

  it('a canary of 100% for one user id runs for that user only', async () => {
    const canaryUser = setup(manifest(['u-canary']));
    await canaryUser.loader.load('mfe-chat', './ChatPanel', { userId: 'u-canary' });
    expect(canaryUser.statuses['mfe-chat']).toEqual({ status: 'running', release: 'canary', version: '0.3.0' });

    const otherUser = setup(manifest(['u-canary']));
    await otherUser.loader.load('mfe-chat', './ChatPanel', { userId: 'u-other' });
    expect(otherUser.statuses['mfe-chat']).toEqual({ status: 'running', release: 'live', version: '0.2.0' });
  });

  it('a canary of 0% runs for nobody; one of 100% for everybody', async () => {
    const none = setup(manifest(undefined, 0));
    await none.loader.load('mfe-chat', './ChatPanel', { userId: 'u1' });
    expect(none.statuses['mfe-chat']).toMatchObject({ release: 'live' });
    const all = setup(manifest(undefined, 100));
    await all.loader.load('mfe-chat', './ChatPanel', { userId: 'u1' });
    expect(all.statuses['mfe-chat']).toMatchObject({ release: 'canary' });
  });

  it('a canary that fails to load falls back to the live release, then the previous one', async () => {
    const { loader, statuses } = setup(manifest(['u1']), [`${origin.base}/0.3.0/`, `${origin.base}/0.2.0/`]);
    expect(await loader.load('mfe-chat', './ChatPanel', { userId: 'u1' })).toBe(Panel);
    expect(statuses['mfe-chat']).toEqual({ status: 'running', release: 'previous', version: '0.1.0' });
  });
});
