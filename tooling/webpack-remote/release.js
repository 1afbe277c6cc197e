// `npm run release -- <remote>` (the remote's `release` script) = `webpack --mode production --env release`:
// the production build, then its folder published as releases/<remote>/<version>/
// (DESIGN.md § Remote versions, swapped by ops).
import { cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

const VERSION = /^[0-9A-Za-z.+-]{1,64}$/;

/**
 * The remote's identity from its package.json: `@tessera/mfe-chat` 1.1.0 → mfe-chat, 1.1.0.
 * @param {string} dir
 * @returns {{ remote: string, version: string }}
 */
export function packageIdentity(dir) {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const remote = String(pkg.name ?? '').replace(/^@[^/]+\//, '');
  const version = String(pkg.version ?? '');
  if (!remote) throw new Error(`${dir}/package.json has no name`);
  if (!VERSION.test(version)) throw new Error(`${dir}/package.json: version "${version}" may contain letters, digits and . + - only`);
  return { remote, version };
}

/**
 * Where releases go: TESSERA_RELEASES_DIR, else `releases/` at the workspace root
 * (the first folder up from the remote holding pnpm-workspace.yaml).
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} [env]
 */
export function releasesRoot(dir, env = process.env) {
  if (env.TESSERA_RELEASES_DIR?.trim()) return path.resolve(env.TESSERA_RELEASES_DIR.trim());
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'pnpm-workspace.yaml'))) return path.join(d, 'releases');
    if (path.dirname(d) === d) return path.join(path.dirname(path.resolve(dir)), 'releases');
  }
}

/**
 * Copies a built remote to `<releasesDir>/<remote>/<version>/`. A release is
 * immutable (its hashed chunks are cached for a year): an existing version is
 * refused. The copy goes to a temporary folder renamed at the end, so a crash
 * never leaves a half release that an origin would serve.
 * @param {{ distDir: string, releasesDir: string, remote: string, version: string, contractsMajor: number }} options
 * @returns {string} the release folder
 */
export function publishRelease({ distDir, releasesDir, remote, version, contractsMajor }) {
  const manifestFile = path.join(distDir, 'mf-manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${distDir} has no mf-manifest.json: build it first`);
  const declared = JSON.parse(readFileSync(manifestFile, 'utf8'))?.metaData?.tessera;
  if (declared?.remote !== remote || declared?.version !== version || declared?.contractsMajor !== contractsMajor) {
    throw new Error(`${manifestFile} does not declare ${remote} ${version} (contracts major ${contractsMajor}): rebuild it`);
  }
  const target = path.join(releasesDir, remote, version);
  if (existsSync(target)) {
    throw new Error(`${remote} ${version} is already released at ${target}; releases are immutable: raise the version in package.json`);
  }
  const tmp = path.join(releasesDir, remote, `.${version}.${process.pid}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    cpSync(distDir, tmp, { recursive: true });
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return target;
}

/**
 * The webpack plugin behind `--env release`: once the production build is
 * written, publishes it.
 */
export class ReleasePlugin {
  /** @param {{ dir: string, contractsMajor: number }} options */
  constructor({ dir, contractsMajor }) {
    this.dir = dir;
    this.contractsMajor = contractsMajor;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('TesseraReleasePlugin', async (compilation) => {
      if (compilation.errors.length > 0) return; // a failed build is never released
      const { remote, version } = packageIdentity(this.dir);
      const target = publishRelease({
        distDir: compiler.outputPath,
        releasesDir: releasesRoot(this.dir),
        remote,
        version,
        contractsMajor: this.contractsMajor,
      });
      console.log(`released ${remote} ${version} to ${target}`);
    });
  }
}
