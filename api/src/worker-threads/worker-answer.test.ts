import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkerLane } from './worker-answer.js';

// Inline worker scripts (eval): each posts its start time, or fails in its own way.
const answering = (ms: number) => `const { parentPort } = require('node:worker_threads'); const at = Date.now(); setTimeout(() => parentPort.postMessage({ at, end: Date.now() }), ${ms});`;

describe('WorkerLane', () => {
  it('runs one worker at a time, each for its one answer', async () => {
    const lane = new WorkerLane('test work');
    const [a, b] = await Promise.all([
      lane.run<{ at: number; end: number }>(answering(150), { eval: true }, 10_000),
      lane.run<{ at: number; end: number }>(answering(0), { eval: true }, 10_000),
    ]);
    assert.ok(b.at >= a.end, 'the second started once the first had answered');
  });

  it('a worker that throws, exits without answering or takes too long is refused, and the next one still runs', async () => {
    const lane = new WorkerLane('test work');
    await assert.rejects(lane.run('throw new Error("broken sheet")', { eval: true }, 10_000), /broken sheet/);
    await assert.rejects(lane.run('process.exit(3)', { eval: true }, 10_000), /test work worker exited with code 3/);
    await assert.rejects(lane.run('setInterval(() => {}, 1000)', { eval: true }, 200), /test work took over 200 ms/);
    assert.ok((await lane.run<{ at: number }>(answering(0), { eval: true }, 10_000)).at > 0);
  });
});
