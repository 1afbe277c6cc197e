// Builds what is not built: each package is rebuilt only when the hash of its
// inputs (its sources, its workspace dependencies' hashes, the lockfile) changed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from './paths.mjs';
import { run } from './run.mjs';
import { REMOTE_DIRS } from './stack.mjs';

/** Build order matters: a package comes after everything it uses. */
export const PACKAGES = [
  { name: '@tessera/contracts', dir: 'shared-contracts', out: 'dist', deps: [] },
  { name: '@tessera/server-kit', dir: 'server-kit', out: 'dist', deps: [] },
  { name: '@tessera/ui-kit', dir: 'ui-kit', out: 'dist', deps: ['shared-contracts'] },
  { name: '@tessera/api', dir: 'api', out: 'dist', deps: ['shared-contracts', 'server-kit'] },
  { name: '@tessera/ai-middleware', dir: 'ai-middleware', out: 'dist', deps: ['shared-contracts', 'server-kit'] },
  ...REMOTE_DIRS.map((dir) => ({
    name: `@tessera/${dir}`,
    dir,
    out: 'dist',
    deps: ['shared-contracts', 'ui-kit', 'tooling/webpack-remote'],
  })),
  { name: '@tessera/shell', dir: 'shell', out: 'dist', deps: ['shared-contracts', 'server-kit', 'tooling/webpack-remote'] },
];

const SKIP_DIRS = new Set(['node_modules', 'dist', 'dist-server', 'test-results', 'playwright-report', 'test', 'coverage']);
const isTestFile = (f) => /\.(test|typetest)\.[cm]?[jt]sx?$/.test(f);

function hashDir(dir, hash) {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) hashDir(p, hash);
    } else if (e.isFile() && !isTestFile(e.name)) {
      hash.update(p).update(readFileSync(p));
    }
  }
}

const memo = new Map();
export function inputHash(dir) {
  if (memo.has(dir)) return memo.get(dir);
  const hash = createHash('sha256');
  hash.update(readFileSync(fromRoot('pnpm-lock.yaml')));
  hashDir(fromRoot(dir), hash);
  const pkg = PACKAGES.find((p) => p.dir === dir);
  for (const dep of pkg?.deps ?? []) hash.update(inputHash(dep));
  const digest = hash.digest('hex');
  memo.set(dir, digest);
  return digest;
}

const stampOf = (pkg) => fromRoot(pkg.dir, pkg.out, '.build-hash');

export function isBuilt(pkg) {
  const stamp = stampOf(pkg);
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === inputHash(pkg.dir);
}

async function buildOne(pnpm, pkg) {
  const started = Date.now();
  console.log(`[build] ${pkg.name} ...`);
  const r = await run(pnpm, ['--filter', pkg.name, 'run', 'build'], { capture: true, quiet: true });
  if (r.code !== 0) {
    process.stderr.write(r.out);
    throw new Error(`Build of ${pkg.name} failed`);
  }
  writeFileSync(stampOf(pkg), inputHash(pkg.dir));
  console.log(`[build] ${pkg.name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Builds every stale package, as many at once as there are cores, each one
 * only after the packages it uses are built.
 */
export async function buildAll(pnpm, { force = false } = {}) {
  const stale = PACKAGES.filter((pkg) => force || !isBuilt(pkg));
  const done = new Map(); // dir -> promise of its build
  let slots = Math.max(1, os.availableParallelism());
  const waiting = [];
  const acquire = () => (slots > 0 ? (slots--, Promise.resolve()) : new Promise((r) => waiting.push(r)));
  const release = () => (waiting.length ? waiting.shift()() : slots++);
  for (const pkg of stale) {
    const deps = pkg.deps.map((d) => done.get(d)).filter(Boolean);
    done.set(
      pkg.dir,
      Promise.all(deps).then(async () => {
        await acquire();
        try {
          await buildOne(pnpm, pkg);
        } finally {
          release();
        }
      }),
    );
  }
  const results = await Promise.allSettled(done.values());
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
