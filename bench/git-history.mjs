// Figures for issue 9 (code repository), in-process through the real routes
// (Fastify inject, auth included): /git/history?limit=50 with 10,000 commits
// (target ≤ 100 ms) and /git/tree over 5,000 files (target ≤ 300 ms), and for
// issue 23: the first /git/tree of a fresh service (an app built on a history it
// never read: no saved file-times index, nothing cached) ≤ 300 ms, printed both
// as the request's own time and from the moment the service was ready (the
// warm-up walk starts then), with the CPU the process spent meanwhile.
// Setup writes the 10,000 commits with `git fast-import` (seconds) rather than
// through the API; the API's own commit rate is measured separately.
// Needs ai-middleware built (`npm run build`). For A/B runs: GIT_BENCH_DIST=<folder> loads the
// service from a copy of ai-middleware/dist (put it inside ai-middleware/, so its imports resolve),
// GIT_BENCH_TREE_ONLY=1 stops after the first /git/tree's figures, and GIT_BENCH_TREE_OUT=<file>
// writes that first answer's body there (two builds must give the same bytes: compare the files).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mw = path.join(root, 'ai-middleware');
const dist = process.env.GIT_BENCH_DIST ? path.resolve(process.env.GIT_BENCH_DIST) : path.join(mw, 'dist');
const treeOnly = process.env.GIT_BENCH_TREE_ONLY === '1';
if (!existsSync(path.join(dist, 'git/git.routes.js'))) {
  console.error('git-history: build ai-middleware first (npm run build)');
  process.exit(1);
}
const load = (name) => import(pathToFileURL(createRequire(path.join(mw, 'package.json')).resolve(name)).href);
const { SignJWT, exportJWK, generateKeyPair } = await load('jose');
const { buildApp } = await import(pathToFileURL(path.join(dist, 'app.js')).href);
const { PACKAGE_VERSION } = await import(pathToFileURL(path.join(dist, 'config.js')).href);

const COMMITS = 10_000;
const FILES = 5_000;
const work = mkdtempSync(path.join(os.tmpdir(), 'tessera-git-bench-'));
const repoDir = path.join(work, 'repo');

// 1. A repository of 5,000 files in 50 folders; then 9,999 commits, each editing one file.
// GIT_BENCH_REPO_CACHE=<folder>: the repository made once is copied from there on later runs
// (the setup takes a minute on a busy machine); the copy is as git wrote it, never read by the service.
const cacheDir = process.env.GIT_BENCH_REPO_CACHE;
const cached = cacheDir && existsSync(path.join(cacheDir, 'HEAD'));
let began = performance.now();
const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
const exts = ['py', 'ts', 'md', 'json', 'txt'];
const fileName = (i) => `pkg${String(i % 50).padStart(2, '0')}/mod${String(i).padStart(4, '0')}.${exts[i % exts.length]}`;
if (cached) cpSync(cacheDir, repoDir, { recursive: true });
else makeRepository();
if (cacheDir && !cached) cpSync(repoDir, cacheDir, { recursive: true });
const setupS = (performance.now() - began) / 1000;

function makeRepository() {
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', repoDir]);
  const chunks = [];
  let time = 1_700_000_000;
  const commitHeader = (n, msg) =>
    `commit refs/heads/main\nmark :${n}\nauthor bench <bench@tessera.local> ${time} +0000\ncommitter bench <bench@tessera.local> ${time++} +0000\n${data(msg)}`;
  chunks.push(commitHeader(1, 'Initial import'));
  for (let i = 0; i < FILES; i += 1) chunks.push(`M 100644 inline ${fileName(i)}\n${data(`# file ${i}\ndef f${i}():\n    return ${i}\n`)}`);
  for (let n = 2; n <= COMMITS; n += 1) {
    const file = fileName((n * 7919) % FILES);
    chunks.push(`${commitHeader(n, `Edit ${file} (${n})\n\nSheet-Version: ${n}`)}from :${n - 1}\nM 100644 inline ${file}\n${data(`# edit ${n}\nx = ${n}\n`)}`);
}
const imported = spawnSync('git', ['-C', repoDir, 'fast-import', '--quiet'], { input: chunks.join('') });
if (imported.status !== 0) throw new Error(imported.stderr.toString());
}

// 2. A key server standing in for the api, and the middleware on that repository.
const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'EdDSA', use: 'sig' };
const keys = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
await new Promise((r) => keys.listen(0, '127.0.0.1', r));
const apiUrl = `http://127.0.0.1:${keys.address().port}`;
const token = await new SignJWT({ sub: 'bench', username: 'bench', role: 'admin' })
  .setProtectedHeader({ alg: 'EdDSA', kid: 'bench' })
  .setIssuer('tessera-api')
  .setIssuedAt()
  .setExpirationTime('1h')
  .sign(privateKey);
const config = {
  host: '127.0.0.1',
  port: 0,
  apiUrl,
  jwksUrl: new URL(`${apiUrl}/api/v1/auth/jwks.json`),
  dataDir: work,
  databaseUrl: undefined,
  gitRepoDir: repoDir,
  provider: 'builtin',
  logLevel: 'silent',
  version: PACKAGE_VERSION,
};
let app = await buildApp(config);
await app.ready();
const readyAt = performance.now();
const readyCpu = process.cpuUsage();
const headers = { authorization: `Bearer ${token}` };

async function measure(label, url, runs = 20, onFirst = undefined) {
  let t0 = performance.now();
  let res = await app.inject({ method: 'GET', url, headers });
  const cold = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  onFirst?.(res);
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    t0 = performance.now();
    res = await app.inject({ method: 'GET', url, headers });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`git-history: ${label}: first ${cold.toFixed(1)} ms, then median ${median.toFixed(1)} ms, max ${times.at(-1).toFixed(1)} ms (${runs} runs)`);
  return res.json();
}

try {
  console.log(`git-history: setup: ${COMMITS} commits over ${FILES} files ${cached ? `copied from ${cacheDir}` : 'written with git fast-import'} in ${setupS.toFixed(1)} s`);
  // The machine may be shared: the load says how far the figures below are from an idle one.
  console.log(`git-history: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  // A fresh process: the first request also opens the repository and the packfile.
  await measure('first /whoami (token check warm-up)', '/whoami', 1);
  // The tree first: the service started its warm-up walk (file times) at start, and this first call waits for what is left of it.
  const tree = await measure(`GET /git/tree (${FILES} files, unseen history; target ≤ 300 ms)`, '/git/tree', treeOnly ? 1 : 20, (res) => {
    const cpu = process.cpuUsage(readyCpu);
    if (process.env.GIT_BENCH_TREE_OUT) writeFileSync(process.env.GIT_BENCH_TREE_OUT, res.rawPayload);
    console.log(
      `git-history: first /git/tree answered ${(performance.now() - readyAt).toFixed(1)} ms after the service was ready ` +
        `(the /whoami before it included; ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms of CPU in that time; ` +
        `${(res.rawPayload.length / 1024).toFixed(0)} KB of JSON; load ${os.loadavg()[0].toFixed(2)})`,
    );
  });
  if (tree.metadata.total_files !== FILES) throw new Error(`tree saw ${tree.metadata.total_files} files`);
  if (treeOnly) {
    await app.close();
    keys.close();
    rmSync(work, { recursive: true, force: true });
    process.exit(0);
  }
  const history = await measure(`GET /git/history?limit=50 (${COMMITS} commits; target ≤ 100 ms)`, '/git/history?limit=50');
  if (history.count !== 50) throw new Error('history did not return 50 commits');
  await measure('GET /git/commit-graph?limit=200', '/git/commit-graph?limit=200');
  await measure('GET /git/history?identifier=<file>&limit=50 (walks the first-parent line)', `/git/history?identifier=${fileName(1)}&limit=50`, 3);
  await measure(`GET /git/code-content (one file)`, `/git/code-content?identifier=${fileName(1)}`);

  // 3. Commits through the API on top of that history (each waits for the previous: the write queue).
  const N = 200;
  let base = history.history[0].hash;
  began = performance.now();
  for (let i = 0; i < N; i += 1) {
    const res = await app.inject({
      method: 'POST',
      url: '/git/commits',
      headers,
      payload: { message: `api ${i}`, base_commit: base, changes: [{ path: `api/f${i % 10}.py`, action: 'upsert', content: `x = ${i}\n` }] },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    base = res.json().commit_hash;
  }
  const perCommit = (performance.now() - began) / N;
  console.log(`git-history: POST /git/commits: ${N} commits in ${((perCommit * N) / 1000).toFixed(1)} s (${perCommit.toFixed(1)} ms each; 10,000 this way ≈ ${((perCommit * 10_000) / 1000).toFixed(0)} s)`);
  await measure('GET /git/tree after those commits (times caught up incrementally)', '/git/tree', 5);
  // 4. A restart: the file-times index saved by the first /git/tree is read back, not rebuilt.
  await app.close();
  app = await buildApp(config);
  await app.ready();
  await measure('first /whoami after a restart', '/whoami', 1);
  await measure('GET /git/tree after a restart (saved file-times index)', '/git/tree', 5);
  const fsck = spawnSync('git', ['-C', repoDir, 'fsck', '--no-dangling'], { encoding: 'utf8' });
  console.log(`git-history: git fsck after the run: ${fsck.status === 0 ? 'clean' : fsck.stdout + fsck.stderr}`);

  // 5. The same history as loose objects (what commits through the API leave behind), first request of a fresh process.
  await app.close();
  const looseDir = path.join(work, 'loose');
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', looseDir]);
  const pack = execFileSync('sh', ['-c', `ls ${repoDir}/objects/pack/*.pack`], { encoding: 'utf8' }).trim().split('\n');
  for (const p of pack) execFileSync('sh', ['-c', `git -C ${looseDir} unpack-objects -q < ${p}`]);
  // The fast-import head (the API commits above are not in the pack).
  execFileSync('git', ['-C', looseDir, 'update-ref', 'refs/heads/main', history.history[0].hash]);
  app = await buildApp({ ...config, gitRepoDir: looseDir, dataDir: path.join(work, 'd2') });
  await app.ready();
  await measure('first /whoami (loose-object repository)', '/whoami', 1);
  await measure(`GET /git/tree, loose objects, no saved index (waits for the warm-up walk)`, '/git/tree', 5);
  await measure(`GET /git/history?limit=50, loose objects`, '/git/history?limit=50');
} finally {
  await app.close();
  keys.close();
  rmSync(work, { recursive: true, force: true });
}
