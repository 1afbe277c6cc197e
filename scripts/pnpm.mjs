// `npm run pnpm -- <args>`: the project's own pnpm (installed into .tools/ when the
// machine has none), so every pnpm command in the READMEs works with npm alone.
import { spawnSync } from 'node:child_process';
import { ensurePnpm } from './lib/pnpm.mjs';
import { repoRoot } from './lib/paths.mjs';

const r = spawnSync(ensurePnpm(), process.argv.slice(2), { cwd: process.env.INIT_CWD || repoRoot, stdio: 'inherit' });
process.exit(r.status ?? 1);
