import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { createFederationLoader, type FederationRuntime } from '../remotes/federation-loader.js';
import type { RemoteLoader } from '../remotes/remote-loader.js';
import { fetchRemotesManifest } from '../remotes/remotes-manifest.js';

let loader: RemoteLoader | null = null;

/** The page's one loader over the host's Module Federation instance (created by the webpack plugin). */
export function federationLoader(): RemoteLoader {
  loader ??= createFederationLoader(
    { loadRemote, registerRemotes, registerPlugins } as FederationRuntime,
    () => fetchRemotesManifest(),
  );
  return loader;
}
