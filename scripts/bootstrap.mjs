// The bootstrap shared by `npm start`, `npm test` and `npm run build`:
// pnpm (installed if missing), dependencies from the lockfile, then every
// package that is not built yet.
import { buildAll } from './lib/build.mjs';
import { ensurePnpm } from './lib/pnpm.mjs';
import { repoRoot } from './lib/paths.mjs';
import { mustRun } from './lib/run.mjs';

export async function bootstrap({ force = false } = {}) {
  const pnpm = ensurePnpm();
  await mustRun(pnpm, ['install', '--frozen-lockfile', '--reporter=append-only'], { cwd: repoRoot, quiet: true });
  await buildAll(pnpm, { force });
  return { pnpm };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  bootstrap({ force: process.argv.includes('--force') }).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
