// The runner never runs code unconfined: without the rights it needs it says what it
// needs and refuses; children that cannot start make jobs fail with the cause.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RUNNER_DEFAULTS, loadConfig } from '../src/config.js';
import { createCodeRunner } from '../src/runner/code-runner.js';
import { confinedChildCommand } from '../src/runner/confinement.js';

test('not root, or without the tools, it refuses to run code and says what it needs', async () => {
  const asNobody = confinedChildCommand(1000, 1000, { platform: 'linux', uid: 65534, path: process.env.PATH });
  assert.ok('refused' in asNobody);
  assert.match(asNobody.refused, /refuses to run code unconfined\. It needs root .* runs as uid 65534\./);
  const noTools = confinedChildCommand(1000, 1000, { platform: 'linux', uid: 0, path: '/nonexistent' });
  assert.ok('refused' in noTools);
  assert.match(noTools.refused, /setsid is not on PATH/);

  // The runner built on a refusal never starts a child: every job fails with the reason.
  const runner = createCodeRunner({ engine: 'pyodide', timeoutMs: 1000, memoryMb: 256, poolSize: 1 }, { command: asNobody });
  try {
    const result = await runner.run({ code: 'print(1)', headers: [], rows: [] });
    const status = runner.status();
    assert.equal(status.state, 'refused');
    assert.equal(status.confined, false);
    assert.equal(result.error, asNobody.refused);
    assert.equal(result.execution_output, '');
  } finally {
    await runner.close();
  }
});

test('children that fail to start put the runner in a failing state with the cause, and jobs fail', async () => {
  const runner = createCodeRunner(
    { ...RUNNER_DEFAULTS, engine: 'pyodide', poolSize: 1 },
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
  assert.deepEqual(loadConfig({}).runner, { engine: 'auto', timeoutMs: 10_000, memoryMb: 512, poolSize: 2 });
  assert.deepEqual(loadConfig({ RUNNER_ENGINE: 'Pyodide', RUNNER_TIMEOUT_MS: '2500', RUNNER_MEMORY_MB: '300', RUNNER_POOL_SIZE: '1' }).runner, {
    engine: 'pyodide',
    timeoutMs: 2500,
    memoryMb: 300,
    poolSize: 1,
  });
  assert.throws(() => loadConfig({ RUNNER_TIMEOUT_MS: '10s' }), /RUNNER_TIMEOUT_MS must be a whole number from 100 to 600000, got "10s"/);
  assert.throws(() => loadConfig({ RUNNER_MEMORY_MB: '64' }), /RUNNER_MEMORY_MB must be a whole number from 200 to 8192/);
  assert.throws(() => loadConfig({ RUNNER_ENGINE: 'docker' }), /RUNNER_ENGINE must be gvisor or pyodide \(or auto, the default\); got "docker"/);
  assert.throws(() => loadConfig({ RUNNER_POOL_SIZE: '0' }), /RUNNER_POOL_SIZE/);
});
