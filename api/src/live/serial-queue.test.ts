import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SerialQueue } from './serial-queue.js';

describe('SerialQueue', () => {
  it('runs the tasks of one key in order, one at a time, and keeps going after a failure', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, fail = false) => async () => {
      running += 1;
      assert.equal(running, 1, 'never two tasks of a key at once');
      await new Promise((r) => setImmediate(r));
      log.push(name);
      running -= 1;
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([queue.run('s', task('a')), queue.run('s', task('b', true)), queue.run('s', task('c'))]);
    assert.deepEqual(log, ['a', 'b', 'c']);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
  });

  it('does not make one key wait for another', async () => {
    const queue = new SerialQueue();
    let release!: () => void;
    const blocked = queue.run('slow', () => new Promise<void>((r) => (release = r)));
    assert.equal(await queue.run('fast', async () => 'done'), 'done');
    release();
    await blocked;
  });
});
