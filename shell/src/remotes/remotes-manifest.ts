import { RemotesManifestSchema, type RemotesManifest } from '@tessera/contracts';

export const REMOTES_MANIFEST_URL = '/remotes.json';

/**
 * Reads remotes.json at every page load, bypassing every cache: ops swap a
 * remote's version by editing it, with no rebuild or restart of the shell.
 */
export async function fetchRemotesManifest(
  fetchFn: typeof fetch = fetch,
  url: string = REMOTES_MANIFEST_URL,
): Promise<RemotesManifest> {
  const res = await fetchFn(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return RemotesManifestSchema.parse(await res.json());
}
