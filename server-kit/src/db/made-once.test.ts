import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { madeOnce } from './made-once.js';

describe('madeOnce', () => {
  it('makes the folder once for the same sources, again when they change, and one of racing makers wins', async () => {
    const src = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'made-once-src-')), 'migrations.sql');
    await fs.writeFile(src, 'create table a ();');
    let made = 0;
    const make = async (dir: string) => {
      made++;
      await fs.mkdir(dir);
      await fs.writeFile(path.join(dir, 'done'), String(made));
    };
    const name = `made-once-test-${process.pid}`;
    const [a, b] = await Promise.all([madeOnce(name, [src], make), madeOnce(name, [src], make)]);
    assert.equal(a, b);
    assert.equal(await madeOnce(name, [src], make), a);
    assert.ok(made <= 2, 'made by the racers only');
    assert.ok((await fs.readFile(path.join(a, 'done'), 'utf8')).length > 0);
    const leftovers = (await fs.readdir(os.tmpdir())).filter((f) => f.startsWith(`${path.basename(a)}.`));
    assert.deepEqual(leftovers, [], 'the loser removed its copy');

    await fs.writeFile(src, 'create table b ();');
    const changed = await madeOnce(name, [src], make);
    assert.notEqual(changed, a);
    for (const dir of [a, changed, path.dirname(src)]) await fs.rm(dir, { recursive: true, force: true });
  });
});
