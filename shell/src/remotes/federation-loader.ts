import {
  CONTRACTS_MAJOR,
  CHAKRA_EXPORTS,
  inCanary,
  insecureRemoteRefusal,
  missingChakraExports,
  REMOTES,
  RemoteManifestFileSchema,
  type RemoteName,
  type RemoteRelease,
  type RemotesManifest,
} from '@tessera/contracts';
import { componentOf, type LoadContext, type RemoteComponent, type RemoteLoader } from './remote-loader.js';
import { recordRemoteStatus, type ReleaseKind, type RemoteStatus } from './remote-status.store.js';

/** The part of @module-federation/enhanced/runtime the loader uses (injectable for tests). */
export interface FederationRuntime {
  registerRemotes(remotes: { name: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
  registerPlugins(plugins: FallbackPlugin[]): void;
}

/** What errorLoadRemote receives (runtime-core RemoteHandler). */
interface ErrorLoadRemoteArgs {
  id: string;
  error: unknown;
  lifecycle: string;
  origin: { loadRemote<T>(id: string): Promise<T | null> };
}

export interface FallbackPlugin {
  name: string;
  errorLoadRemote(args: ErrorLoadRemoteArgs): Promise<unknown>;
}

export interface FederationLoaderOptions {
  /** How release manifests are fetched (the page's fetch by default). */
  fetchFn?: typeof fetch;
  /** The contracts major this shell runs; a release declaring another one is refused. */
  contractsMajor?: number;
  /** The Chakra UI exports this shell provides; a release declaring one outside them is refused. */
  chakraExports?: readonly string[];
  /** Where the running release of each remote is reported (the About view's store by default). */
  report?: (remote: RemoteName, status: RemoteStatus) => void;
  /** The page's scheme ('https:' refuses releases served over http); the page's own by default. */
  shellProtocol?: string;
}

interface Candidate {
  kind: ReleaseKind;
  release: RemoteRelease;
}

interface RemoteState {
  /** Releases to try, in order: the user's canary, the live release, the previous one. */
  candidates: Candidate[];
  /** The candidate registered with the runtime (-1: none yet). */
  index: number;
  /** The version the registered candidate declares in its manifest. */
  version: string;
  /** Fresh attempts so far; each one gets its own manifest URL so no cached failure is reused. */
  attempt: number;
  /** Choosing the first usable candidate (shared by every place of the remote). */
  choosing: Promise<void> | null;
  /** Switches away from a failed candidate, by its index: concurrent failures switch once. */
  switches: Map<number, Promise<void>>;
}

const remoteOfFederationName = new Map(
  (Object.keys(REMOTES) as RemoteName[]).map((remote) => [REMOTES[remote].federationName as string, remote]),
);

/** 'mfe_chat/ChatPanel' → 'mfe-chat'. */
function remoteOfRequest(id: string): RemoteName | undefined {
  return remoteOfFederationName.get(id.split('/')[0]);
}

function withAttempt(url: string, attempt: number): string {
  if (attempt === 0) return url;
  const u = new URL(url);
  u.searchParams.set('attempt', String(attempt));
  return u.href;
}

const messageOf = (error: unknown) => String((error as Error | undefined)?.message ?? error);

/**
 * Loads remotes through the Module Federation runtime from the remotes
 * manifest (DESIGN.md § Remote versions). Per remote, the releases are tried
 * in order: the canary when this user is in it, the live release, the previous
 * one. A release is used only if its mf-manifest.json loads and does not
 * declare another contracts major than the shell's, nor a Chakra UI export the
 * shell does not provide (CHAKRA_EXPORTS); one whose code then fails
 * to load is left for the next (runtime plugin, at the onLoad lifecycle only: a
 * fallback returned at afterResolve breaks the runtime, FACTS.md RUNTIME-013).
 * When none is left the error reaches the place's boundary (the card with Retry).
 *
 * The canary is decided here, in the browser, because only the page knows the
 * signed-in user: the manifest carries the rules (percentage, user ids) and
 * `inCanary` hashes the user id, so the choice is the same at every page load.
 * It is made once per remote and page: a different user signing in on the same
 * page gets their own choice at the next page load.
 */
export function createFederationLoader(
  runtime: FederationRuntime,
  readManifest: () => Promise<RemotesManifest>,
  {
    fetchFn = (input, init) => fetch(input, init),
    contractsMajor = CONTRACTS_MAJOR,
    chakraExports = CHAKRA_EXPORTS,
    report = recordRemoteStatus,
    shellProtocol = globalThis.location?.protocol ?? 'http:',
  }: FederationLoaderOptions = {},
): RemoteLoader {
  const states = new Map<RemoteName, RemoteState>();
  let manifest: Promise<RemotesManifest> | null = null;

  /** Reads remotes.json once per page (again after a failed read). */
  const ready = (): Promise<RemotesManifest> => {
    manifest ??= readManifest().catch((error: unknown) => {
      manifest = null;
      throw error;
    });
    return manifest;
  };

  const candidatesOf = (m: RemotesManifest, remote: RemoteName, userId: string | undefined): Candidate[] => {
    const entry = m.remotes[remote];
    if (!entry) return [];
    const list: Candidate[] = [];
    if (entry.canary && userId && inCanary(remote, entry.canary, userId)) list.push({ kind: 'canary', release: entry.canary });
    list.push({ kind: 'live', release: entry.live });
    if (entry.previous) list.push({ kind: 'previous', release: entry.previous });
    return list;
  };

  /** Fetches a release's mf-manifest.json and checks what it declares; resolves to its version. */
  const check = async (remote: RemoteName, release: RemoteRelease): Promise<string> => {
    // An https page loads no script over http: refused like a release that does not load, so
    // the next release (or the card with Retry) takes its place.
    const insecure = insecureRemoteRefusal(release.manifest, shellProtocol);
    if (insecure) throw new Error(insecure);
    const res = await fetchFn(release.manifest, { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`${release.manifest} answered ${res.status}`);
    const json: unknown = await res.json();
    // Its scripts load from metaData.publicPath when that is a URL (else beside the manifest).
    const publicPath = (json as { metaData?: { publicPath?: unknown } } | null)?.metaData?.publicPath;
    const insecureScripts = typeof publicPath === 'string' ? insecureRemoteRefusal(publicPath, shellProtocol) : null;
    if (insecureScripts) throw new Error(insecureScripts);
    const parsed = RemoteManifestFileSchema.safeParse(json);
    if (!parsed.success) {
      // A build from before releases declared themselves: the runtime's strict shared
      // version of @tessera/contracts still refuses another major.
      console.warn(`[shell] ${remote} ${release.version} declares no build info in ${release.manifest}`);
      return release.version;
    }
    const info = parsed.data.metaData.tessera;
    if (info.remote !== remote) throw new Error(`${release.manifest} is a build of ${info.remote}, not ${remote}`);
    if (info.contractsMajor !== contractsMajor) {
      throw new Error(
        `${remote} ${info.version} was built against contracts major ${info.contractsMajor}; this shell runs major ${contractsMajor}`,
      );
    }
    // Chakra is shared as the subset this shell provides: a name outside it would be undefined.
    const missing = missingChakraExports(info.chakraExports, chakraExports);
    if (missing.length > 0) {
      throw new Error(`${remote} ${info.version} uses Chakra UI exports this shell does not provide: ${missing.join(', ')}`);
    }
    return info.version;
  };

  /** Registers the first usable candidate from `from` on; throws when none is left. */
  const choose = async (remote: RemoteName, state: RemoteState, from: number): Promise<void> => {
    const reasons: string[] = [];
    for (let i = from; i < state.candidates.length; i++) {
      const { kind, release } = state.candidates[i];
      try {
        state.version = await check(remote, release);
      } catch (error) {
        console.warn(`[shell] ${remote} ${kind} release ${release.version} is not usable`, error);
        reasons.push(`${kind} ${release.version}: ${messageOf(error)}`);
        continue;
      }
      state.index = i;
      runtime.registerRemotes(
        [{ name: REMOTES[remote].federationName, entry: withAttempt(release.manifest, state.attempt) }],
        { force: true },
      );
      return;
    }
    state.index = state.candidates.length;
    throw new Error(`${remote}: no release could be loaded (${reasons.join('; ') || 'none listed'})`);
  };

  runtime.registerPlugins([
    {
      name: 'tessera-release-fallback',
      async errorLoadRemote({ id, lifecycle, origin, error }) {
        if (lifecycle !== 'onLoad') return undefined;
        const remote = remoteOfRequest(id);
        const state = remote && states.get(remote);
        if (!remote || !state || state.index < 0 || state.index >= state.candidates.length - 1) return undefined;
        // A module this release does not expose is not a broken release: keep it.
        if (messageOf(error).includes('does not exist in container')) return undefined;
        const failed = state.index;
        const { kind, release } = state.candidates[failed];
        // Concurrent failures of one release switch once; each of them then loads from the next.
        let next = state.switches.get(failed);
        if (!next) {
          console.warn(`[shell] ${remote} ${kind} release ${release.version} failed to load; trying the next one`, error);
          next = choose(remote, state, failed + 1);
          state.switches.set(failed, next);
        }
        try {
          await next;
          // A failure of this load lands here again, one candidate further, until none is left.
          return await origin.loadRemote(id);
        } catch (nextError) {
          console.warn(`[shell] ${id} failed on the releases after ${kind} ${release.version} too`, nextError);
          return undefined;
        }
      },
    },
  ]);

  return {
    async load(remote, expose, context: LoadContext = {}): Promise<RemoteComponent> {
      const m = await ready();
      if (!m.remotes[remote]) throw new Error(`${remote} is not listed in remotes.json`);
      let state = states.get(remote);
      if (!state) {
        state = { candidates: [], index: -1, version: '', attempt: 0, choosing: null, switches: new Map() };
        states.set(remote, state);
      }
      const s = state;
      if (!s.choosing) {
        s.candidates = candidatesOf(m, remote, context.userId);
        s.choosing = choose(remote, s, 0);
      }
      try {
        await s.choosing;
        const module = await runtime.loadRemote<unknown>(`${REMOTES[remote].federationName}/${expose.replace(/^\.\//, '')}`);
        if (!module) throw new Error(`${remote} returned no module for ${expose}`);
        const component = componentOf(module, expose);
        report(remote, { status: 'running', release: s.candidates[s.index].kind, version: s.version });
        return component;
      } catch (error) {
        report(remote, { status: 'failed', message: messageOf(error) });
        throw error;
      }
    },
    async retry(remote) {
      await ready();
      const state = states.get(remote);
      if (!state) return;
      // The next load starts over from the first candidate, under fresh manifest URLs.
      state.attempt += 1;
      state.index = -1;
      state.choosing = null;
      state.switches.clear();
    },
  };
}
