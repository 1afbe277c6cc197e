// `npm run release -- <remote>`: builds a remote for production and publishes it to
// TESSERA_RELEASES_DIR/<remote>/<version>/ (the version from its package.json), through the
// project's own pnpm; `npm run remotes -- set <remote> <version>` then makes it live.
import { spawnSync } from 'node:child_process';
import { ensurePnpm } from './lib/pnpm.mjs';
import { repoRoot } from './lib/paths.mjs';
import { REMOTE_DIRS } from './lib/stack.mjs';

const remote = process.argv[2];
if (!REMOTE_DIRS.includes(remote) || process.argv.length > 3) {
  console.error(`usage: npm run release -- <remote>   (one of ${REMOTE_DIRS.join(', ')})`);
  process.exit(2);
}
const r = spawnSync(ensurePnpm(), ['--filter', `@tessera/${remote}`, 'run', 'release'], { cwd: repoRoot, stdio: 'inherit' });
process.exit(r.status ?? 1);
