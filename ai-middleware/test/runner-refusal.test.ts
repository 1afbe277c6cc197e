// The runner never runs code unconfined: without the rights it needs it says what it
// needs and refuses; children that cannot start make jobs fail with the cause.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { RUNNER_DEFAULTS, loadConfig } from '../src/config.js';
import { createCodeRunner } from '../src/runner/code-runner.js';

const codeRunner = fileURLToPath(new URL('../src/runner/code-runner.ts', import.meta.url));

test('run as an unprivileged user, it refuses to run code and says what it needs', async () => {
  const script = [
    `import { createCodeRunner } from ${JSON.stringify(codeRunner)};`,
    'const runner = createCodeRunner({ timeoutMs: 1000, memoryMb: 256, poolSize: 1 });',
    "const result = await runner.run({ code: 'print(1)', headers: [], rows: [] });",
    'console.log(JSON.stringify({ status: runner.status(), result }));',
    'await runner.close();',
  ].join('\n');
  const { stdout } = await promisify(execFile)(
    'setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), env: { PATH: process.env.PATH, HOME: '/tmp' } },
  );
  const { status, result } = JSON.parse(stdout) as {
    status: { state: string; confined: boolean; reason: string };
    result: { error: string; execution_output: string };
  };
  assert.equal(status.state, 'refused');
  assert.equal(status.confined, false);
  assert.match(status.reason, /refuses to run code unconfined\. It needs root .* runs as uid 65534\./);
  assert.equal(result.error, status.reason);
  assert.equal(result.execution_output, '');
});

test('children that fail to start put the runner in a failing state with the cause, and jobs fail', async () => {
  const runner = createCodeRunner(
    { ...RUNNER_DEFAULTS, poolSize: 1 },
    { command: { command: 'sh', args: ['-c', 'echo "unshare: unshare failed: Operation not permitted" >&2; exit 1'], env: {} } },
  );
  try {
    const out = await runner.run({ code: '1', headers: [], rows: [] });
    assert.equal(out.error, 'Code runner children fail to start (exit code 1: unshare: unshare failed: Operation not permitted)');
    assert.equal(runner.status().state, 'failing');
  } finally {
    await runner.close();
  }
});

test('RUNNER_* variables set the limits; bad values are refused', () => {
  assert.deepEqual(loadConfig({}).runner, { timeoutMs: 10_000, memoryMb: 256, poolSize: 2 });
  assert.deepEqual(loadConfig({ RUNNER_TIMEOUT_MS: '2500', RUNNER_MEMORY_MB: '512', RUNNER_POOL_SIZE: '1' }).runner, {
    timeoutMs: 2500,
    memoryMb: 512,
    poolSize: 1,
  });
  assert.throws(() => loadConfig({ RUNNER_TIMEOUT_MS: '10s' }), /RUNNER_TIMEOUT_MS must be a whole number from 100 to 600000; got "10s"/);
  assert.throws(() => loadConfig({ RUNNER_MEMORY_MB: '64' }), /RUNNER_MEMORY_MB must be a whole number from 200 to 1024/);
  assert.throws(() => loadConfig({ RUNNER_POOL_SIZE: '0' }), /RUNNER_POOL_SIZE/);
});
