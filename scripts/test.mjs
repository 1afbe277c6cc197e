// `npm test`: bootstrap, type-check, unit tests, service integration tests on
// a real PostgreSQL and on PGlite, then the e2e suite in Debian's Chromium.
// Ends with one line: `N passed, N failed`.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { bootstrap } from './bootstrap.mjs';
import { fromRoot } from './lib/paths.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { redisAvailable, startRedis } from './lib/redis.mjs';
import { run } from './lib/run.mjs';
import { compileServiceTests, compiledName } from './lib/compiled-tests.mjs';
import { databaseTestFiles, serviceTestFiles } from './lib/service-tests.mjs';
import { ensureSystemDeps } from './lib/system-deps.mjs';

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** Seconds each stage took, printed at the end: where the run's time goes. */
const timings = [];
let stageBegan = Date.now();
const workDir = fromRoot('.tessera-test');
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });

function record(label, { passed = 0, failed = 0, skipped = 0 }, code) {
  // A runner that failed without reporting a failed test still counts as one failure.
  if (code !== 0 && failed === 0) failed = 1;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  if (failed) failures.push(label);
  const seconds = (Date.now() - stageBegan) / 1000;
  stageBegan = Date.now();
  timings.push({ label, seconds });
  console.log(`\n[test] ${label}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} (${seconds.toFixed(0)} s)\n`);
}

/**
 * Jest workers per suite. Jest's default is one fewer than the cores: on a 2-core machine one
 * worker, i.e. the whole suite in band on one core while the other idles. Each test file still
 * runs alone in its worker, with its own jsdom (tooling/jest-react gives each test 30 s).
 */
const JEST_WORKERS = Math.max(2, os.availableParallelism() - 1);

/**
 * Every package's jest tests in one run (jest's projects): one pool of workers over all files
 * instead of a pool per package, each of which idles a core while its last file runs and boots
 * jest again (7 runs one after another took 352 s, one run 273 s, same machine and load).
 */
/**
 * jest's testTimeout is a global option: in a run of several projects each project's own
 * (tooling/jest-react's) is ignored and every test had jest's 5 s default, which a busy 2-core
 * machine overruns. The run passes the front-end packages' shared one.
 */
const JEST_TEST_TIMEOUT_MS = createRequire(import.meta.url)(fromRoot('tooling/jest-react/config.cjs'))(fromRoot('.')).testTimeout;

async function jestSuites(dirs) {
  const out = path.join(workDir, 'jest.json');
  const r = await run(pnpm, ['exec', 'jest', '--ci', `--maxWorkers=${JEST_WORKERS}`, `--testTimeout=${JEST_TEST_TIMEOUT_MS}`, '--json', `--outputFile=${out}`, '--projects', ...dirs.map((d) => fromRoot(d))]);
  let stats = {};
  try {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    stats = { passed: j.numPassedTests, failed: j.numFailedTests, skipped: j.numPendingTests };
  } catch {
    /* the runner died before writing its report */
  }
  record(`unit tests (jest: ${dirs.join(', ')})`, stats, r.code);
}

/** node:test's spec reporter closes with `ℹ pass N` / `ℹ fail N` lines. */
async function nodeSuite(label, pkg, script, env) {
  recordNodeTest(label, await run(pnpm, ['--filter', pkg, 'run', script], { env, capture: true }));
}

/**
 * How many service test files run at once. node:test's default is one fewer than the cores,
 * so one file at a time on a 2-core machine, while most of a file's time is spent waiting
 * (PostgreSQL, child processes, sockets). Files share nothing that would make two of them
 * collide: each test app gets its own database (PostgreSQL) or folder (PGlite), port 0, its
 * own Redis key prefix (from its database) and its own runner children.
 */
const SERVICE_TEST_CONCURRENCY = Math.max(2, os.availableParallelism() - 1);

/**
 * A service's node:test files (relative to `dir`), compiled once (scripts/lib/compiled-tests.mjs),
 * run from the package's folder in the compiled checkout.
 */
async function serviceSuite(label, dir, files, env) {
  const args = ['--enable-source-maps', '--test', `--test-concurrency=${SERVICE_TEST_CONCURRENCY}`, '--test-reporter=spec', ...files.map(compiledName)];
  recordNodeTest(label, await run(process.execPath, args, { cwd: path.join(compiled, dir), env, capture: true }));
}

/** A node:test file outside the packages (deploy/). */
async function nodeFile(label, file) {
  recordNodeTest(label, await run(process.execPath, ['--test', '--test-reporter=spec', fromRoot(file)], { capture: true }));
}

function recordNodeTest(label, r) {
  const last = (key) => {
    const m = [...r.out.matchAll(new RegExp(`^\\S* ?${key} (\\d+)$`, 'gm'))].at(-1);
    return m ? Number(m[1]) : 0;
  };
  record(label, { passed: last('pass'), failed: last('fail') + last('cancelled'), skipped: last('skipped') + last('todo') }, r.code);
}

const began = Date.now();
let pnpm;
try {
  ({ pnpm } = await bootstrap());
} catch (e) {
  console.error(e.message);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
timings.push({ label: 'bootstrap (install, build what changed)', seconds: (Date.now() - began) / 1000 });
stageBegan = Date.now();

const depsProblem = ensureSystemDeps();
timings.push({ label: 'system packages', seconds: (Date.now() - stageBegan) / 1000 });
stageBegan = Date.now();

// 1. Types
{
  const r = await run(pnpm, ['-r', '--workspace-concurrency=2', 'run', 'typecheck']);
  record('typecheck', { passed: r.code === 0 ? 1 : 0 }, r.code);
}

// 2. Unit tests beside the code
await jestSuites(['shared-contracts', 'ui-kit', 'shell', 'mfe-sheets', 'mfe-chat', 'mfe-git', 'mfe-members']);
await nodeSuite('shell server', '@tessera/shell', 'test:server', {});
await nodeSuite('remote origin', '@tessera/remote-origin', 'test', {});
await nodeSuite('remotes command', '@tessera/remotes-cli', 'test', {});
await nodeSuite('remote releases', '@tessera/webpack-remote', 'test', {});
await nodeFile('deploy files (docker-compose config)', 'deploy/compose.test.mjs');
await nodeFile('root commands with npm alone', 'scripts/commands.test.mjs');
await nodeFile('npm start restarts a service that exits', 'scripts/supervisor.test.mjs');
await nodeSuite('server kit', '@tessera/server-kit', 'test', {});

// 3. Services, on PostgreSQL then on PGlite
let pg = null;
if (depsProblem) {
  console.error(depsProblem);
  record('PostgreSQL available', {}, 1);
} else {
  try {
    pg = startPostgres({ dir: path.join('/tmp', `tessera-test-pg-${process.pid}`), port: 55000 + (process.pid % 1000) });
  } catch (e) {
    console.error(e.message);
    record('PostgreSQL start', {}, 1);
  }
}
// The api's live scale-out tests (two api processes) need a Redis; without one they say why they skip.
let redis = null;
if (redisAvailable()) {
  try {
    redis = startRedis({ dir: path.join('/tmp', `tessera-test-redis-${process.pid}`), port: 57000 + (process.pid % 1000) });
  } catch (e) {
    console.error(e.message);
  }
} else {
  console.log('[test] redis-server is not installed (apt-get install -y redis-server): the api tests across two processes skip');
}
const services = [['@tessera/api', 'api'], ['@tessera/ai-middleware', 'ai-middleware']];
let compiled;
try {
  compiled = await compileServiceTests(path.join(workDir, 'compiled'), services.map(([, dir]) => dir));
} catch (e) {
  console.error(e.message);
  record('service tests compile', {}, 1);
}
try {
  // Every test file once (on PostgreSQL when it is there); then, on PGlite, only the files
  // that touch the database (scripts/lib/service-tests.mjs).
  for (const [pkg, dir] of compiled ? services : []) {
    const env = pkg === '@tessera/api' && redis ? { TEST_REDIS_URL: redis.url } : {};
    const all = serviceTestFiles(fromRoot(dir));
    const db = databaseTestFiles(fromRoot(dir), all);
    if (pg) await serviceSuite(`${pkg} on PostgreSQL (all ${all.length} files)`, dir, all, { ...env, TEST_PG_URL: pg.url });
    const onPglite = pg ? db : all;
    await serviceSuite(`${pkg} on PGlite (${onPglite.length} files${pg ? ' that use the database' : ''})`, dir, onPglite, { ...env, TEST_PG_URL: '' });
  }
} finally {
  pg?.stop();
  redis?.stop();
}

// 4. End to end in Chromium
if (!depsProblem) {
  const report = path.join(workDir, 'e2e.json');
  const r = await run(pnpm, ['--filter', '@tessera/e2e', 'exec', 'playwright', 'test'], {
    // One retry (e2e/playwright.config.ts): a test that passes on it counts, and is named below.
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report, TESSERA_E2E_WORKDIR: path.join(workDir, 'e2e'), TESSERA_E2E_RETRIES: '1' },
  });
  let stats = {};
  try {
    const s = JSON.parse(readFileSync(report, 'utf8')).stats;
    stats = { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped };
    if (s.flaky > 0) console.log(`[test] e2e: ${s.flaky} test(s) failed once and passed on the retry (flaky: see their failure above)`);
  } catch {
    /* no report */
  }
  record('e2e (Chromium)', stats, r.code);
}

console.log('\n[test] where the time went:');
for (const t of timings) console.log(`[test]   ${t.seconds.toFixed(0).padStart(5)} s  ${t.label}`);
console.log(`\n[test] finished in ${((Date.now() - began) / 1000).toFixed(0)} s${failures.length ? `; failing: ${failures.join('; ')}` : ''}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed ? 1 : 0);
