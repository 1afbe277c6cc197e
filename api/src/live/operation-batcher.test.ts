import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OperationBatcher } from './operation-batcher.js';

describe('OperationBatcher', () => {
  it('commits a lone item at once, then what queued meanwhile as groups within the bounds, in order, one group at a time', async () => {
    const groups: string[][] = [];
    let running = 0;
    let release!: () => void;
    const firstHeld = new Promise<void>((r) => (release = r));
    const allDone = new Promise<void>((resolve) => {
      const batcher = new OperationBatcher<string>(
        async (key, group) => {
          running += 1;
          assert.equal(running, 1, 'never two groups of a sheet at once');
          groups.push(group.map((g) => `${key}:${g}`));
          if (groups.length === 1) await firstHeld;
          running -= 1;
          if (groups.flat().length === 7) resolve();
        },
        (item) => (item.startsWith('big') ? 3 : 1),
        (err) => assert.fail(String(err)),
        3,
        4,
      );
      batcher.submit('s', 'a');
      for (const item of ['b', 'c', 'd', 'big1', 'e', 'f']) batcher.submit('s', item);
      release();
    });
    await allDone;
    // 'a' alone; then at most 3 items and 4 cells per group: b c d | big1 e | f.
    assert.deepEqual(groups, [['s:a'], ['s:b', 's:c', 's:d'], ['s:big1', 's:e'], ['s:f']]);
  });

  it('keeps going after a failed group and runs other sheets in parallel', async () => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    await new Promise<void>((resolve) => {
      const batcher = new OperationBatcher<string>(
        async (key, group) => {
          await new Promise((r) => setImmediate(r));
          seen.push(`${key}:${group.join('')}`);
          if (group.includes('x')) throw new Error('boom');
          if (seen.length === 4) resolve();
        },
        () => 1,
        (err) => errors.push(err),
      );
      batcher.submit('s', 'x');
      batcher.submit('t', 'a');
      batcher.submit('s', 'y');
      batcher.submit('s', 'z');
      batcher.submit('t', 'b');
    });
    assert.deepEqual(seen.sort(), ['s:x', 's:yz', 't:a', 't:b'].sort());
    assert.equal(errors.length, 1);
  });
});

describe('OperationBatcher window', () => {
  it('commits a lone item on a quiet sheet at once; items that follow within the window of the last group go together when it ends', async () => {
    const groups: string[][] = [];
    let committed!: () => void;
    const second = new Promise<void>((r) => (committed = r));
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
    };
    // A window far longer than the few event-loop turns below.
    const batcher = new OperationBatcher<string>(
      async (_key, group) => {
        groups.push(group);
        if (groups.length === 3) committed();
      },
      () => 1,
      (err) => assert.fail(String(err)),
      500,
      10_000,
      undefined,
      1_000,
    );
    batcher.submit('s', 'a');
    assert.deepEqual(groups, [['a']], 'the first item of a quiet sheet goes without waiting');
    await turns(3);
    batcher.submit('s', 'b');
    await turns(3);
    batcher.submit('s', 'c');
    assert.deepEqual(groups, [['a']], 'b and c wait for the window of the group of a');
    batcher.submit('t', 'other');
    assert.deepEqual(groups, [['a'], ['other']], 'another sheet has its own window');
    await second;
    await turns(3);
    assert.deepEqual(groups, [['a'], ['other'], ['b', 'c']]);
  });
});

describe('OperationBatcher fill', () => {
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };

  /** No window, the given fill; `secondGroup` resolves once two groups were committed. */
  const fillBatcher = (fill: { items: number; maxWaitMs: number }) => {
    const groups: string[][] = [];
    let second!: () => void;
    const secondGroup = new Promise<void>((r) => (second = r));
    const batcher = new OperationBatcher<string>(
      async (_key, group) => {
        groups.push(group);
        if (groups.length === 2) second();
      },
      () => 1,
      (err) => assert.fail(String(err)),
      500,
      10_000,
      undefined,
      0,
      fill,
    );
    return { groups, secondGroup, batcher };
  };

  it('a group smaller than the fill waits past the window for more, and goes once it has them', async () => {
    // A fill of 3 and a wait far longer than the few turns below.
    const { groups, secondGroup, batcher } = fillBatcher({ items: 3, maxWaitMs: 60_000 });
    batcher.submit('s', 'a');
    assert.deepEqual(groups, [['a']], 'the first item of a quiet sheet goes without waiting');
    batcher.submit('s', 'b');
    await turns(3);
    batcher.submit('s', 'c');
    await turns(3);
    assert.deepEqual(groups, [['a']], 'b and c wait for a third');
    batcher.submit('s', 'd');
    await secondGroup;
    assert.deepEqual(groups, [['a'], ['b', 'c', 'd']]);
  });

  it('an item that comes after a group, within the longest wait, waits for more instead of going alone', async () => {
    const { groups, secondGroup, batcher } = fillBatcher({ items: 3, maxWaitMs: 60_000 });
    batcher.submit('s', 'a');
    // a's group is done and nothing is waiting: the sheet is still within a's wait.
    await turns(5);
    batcher.submit('s', 'b');
    await turns(5);
    assert.deepEqual(groups, [['a']], 'b waits for more');
    batcher.submit('s', 'c');
    batcher.submit('s', 'd');
    await secondGroup;
    assert.deepEqual(groups, [['a'], ['b', 'c', 'd']]);
  });

  it('a small group goes alone once the longest wait has passed', async () => {
    const { groups, secondGroup, batcher } = fillBatcher({ items: 3, maxWaitMs: 20 });
    batcher.submit('s', 'a');
    batcher.submit('s', 'b');
    await secondGroup;
    assert.deepEqual(groups, [['a'], ['b']]);
  });
});

describe('OperationBatcher queue bounds', () => {
  it('refuses an item past the count or byte bound of its key, keeps nothing of it, and takes items again once the queue drained', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const committed: string[] = [];
    let drained!: () => void;
    const done = new Promise<void>((r) => (drained = r));
    const batcher = new OperationBatcher<string>(
      async (_key, group) => {
        if (committed.length === 0) await held;
        committed.push(...group);
        if (committed.length === 4) drained();
      },
      () => 1,
      (err) => assert.fail(String(err)),
      500,
      10_000,
      { maxItems: 2, maxBytes: 10, bytes: (item) => item.length },
    );
    assert.equal(batcher.submit('s', 'first'), true, 'taken at once into the first group');
    assert.equal(batcher.submit('s', 'a'), true);
    assert.equal(batcher.submit('s', 'b'), true);
    assert.equal(batcher.submit('s', 'c'), false, 'a third waiting item passes the count bound');
    assert.equal(batcher.submit('t', 'other sheet'), false, 'eleven bytes pass the byte bound of its own sheet');
    assert.equal(batcher.submit('t', 'ok'), true, 'another sheet has its own queue');
    assert.equal(batcher.queued('s'), 2);
    release();
    await done;
    assert.deepEqual(committed.sort(), ['a', 'b', 'first', 'ok']);
    assert.equal(batcher.submit('s', 'again'), true, 'room again once drained');
  });
});
