// Before remotes.json points at a release, the release must exist and be usable:
// its mf-manifest.json loads from its origin, declares this remote and version,
// and was built against the contracts major the shell runs.
import { CONTRACTS_MAJOR, RemoteManifestFileSchema } from '@tessera/contracts';

/** `http://localhost:3002` + 1.1.0 → `http://localhost:3002/1.1.0/mf-manifest.json`. */
export function manifestUrl(origin, version) {
  return new URL(`/${encodeURIComponent(version)}/mf-manifest.json`, origin).href;
}

/**
 * Fetches and checks a release's manifest; resolves to its build info or throws
 * an error ops can act on.
 */
export async function checkRelease({ remote, version, url, contractsMajor = CONTRACTS_MAJOR, fetchFn = fetch, timeoutMs = 10_000 }) {
  let res;
  try {
    res = await fetchFn(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new Error(`${remote} ${version}: cannot load ${url}: ${err.cause?.message ?? err.message}`);
  }
  if (res.status === 404) throw new Error(`${remote} has no release ${version} at ${url} (404)`);
  if (!res.ok) throw new Error(`${remote} ${version}: ${url} answered ${res.status}`);
  let json;
  try {
    json = await res.json();
  } catch {
    throw new Error(`${remote} ${version}: ${url} is not JSON`);
  }
  const parsed = RemoteManifestFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${remote} ${version}: ${url} declares no Tessera build info (metaData.tessera); was it built by the release command?`);
  }
  const info = parsed.data.metaData.tessera;
  if (info.remote !== remote) throw new Error(`${url} is a release of ${info.remote}, not ${remote}`);
  if (info.version !== version) throw new Error(`${url} declares version ${info.version}, not ${version}`);
  if (info.contractsMajor !== contractsMajor) {
    throw new Error(
      `${remote} ${version} was built against contracts major ${info.contractsMajor}; the shell runs major ${contractsMajor}: refused`,
    );
  }
  return info;
}
