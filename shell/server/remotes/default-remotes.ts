import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REMOTE_NAMES, REMOTE_PORTS, type RemoteName, type RemotesManifest, RemotesManifestSchema } from '@tessera/contracts';

/**
 * The manifest a fresh install starts with: each remote's own package.json
 * version, served by its origin on localhost at REMOTE_PORTS (DESIGN.md § Remote versions).
 * Test stacks on other ports pass their own.
 */
export async function buildDefaultRemotes(
  repoRoot: string,
  ports: Record<RemoteName, number> = REMOTE_PORTS,
): Promise<RemotesManifest> {
  const remotes: Record<string, unknown> = {};
  for (const name of REMOTE_NAMES) {
    const pkgFile = path.join(repoRoot, name, 'package.json');
    const { version } = JSON.parse(await readFile(pkgFile, 'utf8')) as { version?: unknown };
    if (typeof version !== 'string') throw new Error(`${pkgFile} has no version`);
    remotes[name] = {
      live: { version, manifest: `http://localhost:${ports[name]}/${version}/mf-manifest.json` },
    };
  }
  return RemotesManifestSchema.parse({ remotes });
}
