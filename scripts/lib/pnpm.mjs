// Finds pnpm, or installs the pinned one into .tools/ without needing root.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.mjs';

const PNPM_VERSION = '10.34.9';

export function ensurePnpm() {
  const local = path.join(repoRoot, '.tools', 'node_modules', '.bin', 'pnpm');
  if (existsSync(local)) return local;
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0 && /^10\./.test(probe.stdout.trim())) return 'pnpm';
  console.log(`Installing pnpm ${PNPM_VERSION} into .tools/ ...`);
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', path.join(repoRoot, '.tools'), `pnpm@${PNPM_VERSION}`], { stdio: 'inherit' });
  if (r.status !== 0 || !existsSync(local)) throw new Error('Could not install pnpm with npm');
  return local;
}
