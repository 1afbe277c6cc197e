// Figure: `npm start` on a fresh clone, seconds until the sign-in page is served.
// Dependencies come from pnpm's store (already downloaded), so this measures
// install-from-store + build + start, not the network. Needs ports 3000-3004,
// 8081 and 8083 free.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-startup-'));
execFileSync('git', ['clone', '-q', repo, dir]);

const began = Date.now();
const child = spawn('npm', ['start'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
let log = '';
child.stdout.on('data', (d) => (log += d));
child.stderr.on('data', (d) => (log += d));

let served = null;
while (Date.now() - began < 15 * 60_000 && child.exitCode === null) {
  try {
    const res = await fetch('http://127.0.0.1:3000/login', { signal: AbortSignal.timeout(1000) });
    const html = await res.text();
    if (res.ok && html.includes('<script')) {
      served = (Date.now() - began) / 1000;
      break;
    }
  } catch {
    /* not up yet */
  }
  await new Promise((r) => setTimeout(r, 200));
}
process.kill(-child.pid, 'SIGINT');
await new Promise((r) => child.once('exit', r));
rmSync(dir, { recursive: true, force: true });
if (served === null) {
  console.error(log.slice(-3000));
  console.error('startup: the sign-in page was never served');
  process.exit(1);
}
console.log(`startup: npm start on a fresh clone served the sign-in page after ${served.toFixed(1)} s`);
const builds = [...log.matchAll(/\[build\] (\S+) done in ([\d.]+) s/g)].map((m) => `${m[1]} ${m[2]} s`);
if (builds.length) console.log(`startup: builds: ${builds.join(', ')}`);
