import { REMOTES, type RemoteName, type RemoteRelease, type RemotesManifest } from '@tessera/contracts';
import { componentOf, type RemoteComponent, type RemoteLoader } from './remote-loader.js';

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

type Release = 'live' | 'previous';

interface RemoteState {
  release: Release;
  /** Fresh attempts so far; each one gets its own manifest URL so no cached failure is reused. */
  attempt: number;
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

/**
 * Loads remotes through the Module Federation runtime from the remotes
 * manifest. A module that fails to load is tried once from the remote's
 * previous release (runtime plugin, at the onLoad lifecycle only: a fallback
 * returned at afterResolve breaks the runtime, FACTS.md RUNTIME-013); when that
 * fails too the error reaches the place's error boundary. `retry` re-registers
 * the live release under a new manifest URL, so the runtime fetches it again
 * instead of reusing what it cached from the failure.
 */
export function createFederationLoader(
  runtime: FederationRuntime,
  readManifest: () => Promise<RemotesManifest>,
): RemoteLoader {
  const states = new Map<RemoteName, RemoteState>();
  let manifest: Promise<RemotesManifest> | null = null;
  // The manifest as last read, for the runtime plugin (which runs inside loadRemote).
  let manifestNow: RemotesManifest | null = null;

  const releaseOf = (m: RemotesManifest, remote: RemoteName, release: Release): RemoteRelease | undefined =>
    m.remotes[remote]?.[release];

  const register = (remote: RemoteName, release: RemoteRelease, attempt: number, force: boolean) =>
    runtime.registerRemotes(
      [{ name: REMOTES[remote].federationName, entry: withAttempt(release.manifest, attempt) }],
      { force },
    );

  /** Reads remotes.json once (again after a failed read) and registers every live release. */
  const ready = (): Promise<RemotesManifest> => {
    manifest ??= readManifest().then(
      (m) => {
        manifestNow = m;
        for (const remote of Object.keys(m.remotes) as RemoteName[]) {
          const live = releaseOf(m, remote, 'live');
          if (!live) continue;
          const state = states.get(remote) ?? { release: 'live', attempt: 0 };
          states.set(remote, state);
          register(remote, live, state.attempt, true);
        }
        return m;
      },
      (error: unknown) => {
        manifest = null;
        throw error;
      },
    );
    return manifest;
  };

  // Requests being retried from the previous release: their failure is final.
  const onPrevious = new Set<string>();
  runtime.registerPlugins([
    {
      name: 'tessera-previous-release',
      async errorLoadRemote({ id, lifecycle, origin, error }) {
        if (lifecycle !== 'onLoad' || onPrevious.has(id)) return undefined;
        const remote = remoteOfRequest(id);
        const state = remote && states.get(remote);
        const previous = remote && manifestNow ? releaseOf(manifestNow, remote, 'previous') : undefined;
        if (!remote || !state || !previous) return undefined;
        // A module this release does not expose is not a broken release: keep it.
        if (String((error as Error | undefined)?.message ?? error).includes('does not exist in container')) return undefined;
        // Concurrent failures of one remote switch it once; each of them then loads from the previous release.
        if (state.release === 'live') {
          console.warn(`[shell] ${remote} live release failed; trying its previous release ${previous.version}`, error);
          state.release = 'previous';
          register(remote, previous, state.attempt, true);
        }
        onPrevious.add(id);
        try {
          return await origin.loadRemote(id);
        } catch (previousError) {
          console.warn(`[shell] ${id} failed on the previous release ${previous.version} too`, previousError);
          return undefined;
        } finally {
          onPrevious.delete(id);
        }
      },
    },
  ]);

  return {
    async load(remote, expose): Promise<RemoteComponent> {
      const m = await ready();
      if (!m.remotes[remote]) throw new Error(`${remote} is not listed in remotes.json`);
      const module = await runtime.loadRemote<unknown>(`${REMOTES[remote].federationName}/${expose.replace(/^\.\//, '')}`);
      if (!module) throw new Error(`${remote} returned no module for ${expose}`);
      return componentOf(module, expose);
    },
    async retry(remote) {
      const m = await ready();
      const live = releaseOf(m, remote, 'live');
      if (!live) return;
      const state = states.get(remote) ?? { release: 'live', attempt: 0 };
      state.attempt += 1;
      state.release = 'live';
      states.set(remote, state);
      register(remote, live, state.attempt, true);
    },
  };
}
