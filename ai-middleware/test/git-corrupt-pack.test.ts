// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is how the git reader refuses corrupt packs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import { CorruptPackError, ObjectReader, PackNotReadError } from '../src/git/object-reader.js';
import { ObjectStore } from '../src/git/object-store.js';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

/*
 * Hand-made packs: the pack format (git's Documentation/gitformat-pack.txt) written
 * here, so one field at a time can be made hostile. The first test checks the
 * writer against git itself: git reads its packs and writes the same .idx for them.
 */

const BLOB = 3;
const TREE = 2;
const OFS_DELTA = 6;
const REF_DELTA = 7;

/** An entry's header: the kind in bits 4-6 of the first byte, the size in its low 4 bits, then 7 bits a byte. */
function entryHeader(kind: number, size: number): Buffer {
  const out: number[] = [];
  let c = (kind << 4) | size % 16;
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    out.push(c | 0x80);
    c = rest % 128;
    rest = Math.floor(rest / 128);
  }
  out.push(c);
  return Buffer.from(out);
}

/** An OFS_DELTA's distance back to its base: big-endian 7 bits a byte, each continuation adding one. */
function ofsDistance(back: number): Buffer {
  const out = [back % 128];
  let rest = Math.floor(back / 128);
  while (rest > 0) {
    rest -= 1;
    out.unshift(0x80 | rest % 128);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(out);
}

/** A delta's sizes (little-endian 7 bits a byte). */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 128) {
    out.push(0x80 | n % 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** A delta from a base of `baseSize` bytes to `target`, all of it inserted (at most 127 bytes per instruction). */
function insertDelta(baseSize: number, target: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from([...varint(baseSize), ...varint(target.length)])];
  for (let i = 0; i < target.length; i += 127) {
    const chunk = target.subarray(i, i + 127);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

const objectName = (type: string, content: Buffer) => createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest();

/** A whole object entry: header and deflated content; `size` overrides the header's size. */
const whole = (kind: number, content: Buffer, size = content.length) => Buffer.concat([entryHeader(kind, size), deflateSync(content)]);

interface Entry {
  name: Buffer;
  bytes: Buffer;
}

/** Writes the entries as a pack and its v2 .idx into the repository's pack folder. */
function writePack(gitdir: string, entries: Entry[]): { packFile: string; idxFile: string } {
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n >>> 0);
    return b;
  };
  const body = Buffer.concat([Buffer.from('PACK', 'latin1'), u32(2), u32(entries.length), ...entries.map((e) => e.bytes)]);
  const packSum = createHash('sha1').update(body).digest();
  const offsets: number[] = [];
  let at = 12;
  for (const e of entries) {
    offsets.push(at);
    at += e.bytes.length;
  }
  const order = entries.map((_, i) => i).sort((a, b) => Buffer.compare(entries[a].name, entries[b].name));
  const fanout = Array.from({ length: 256 }, (_, byte) => u32(order.filter((i) => entries[i].name[0] <= byte).length));
  const idxBody = Buffer.concat([
    Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]),
    ...fanout,
    ...order.map((i) => entries[i].name),
    ...order.map((i) => u32(crc32(entries[i].bytes))),
    ...order.map((i) => u32(offsets[i])),
    packSum,
  ]);
  const dir = path.join(gitdir, 'objects', 'pack');
  mkdirSync(dir, { recursive: true });
  const base = path.join(dir, `pack-${packSum.toString('hex')}`);
  writeFileSync(`${base}.pack`, Buffer.concat([body, packSum]));
  writeFileSync(`${base}.idx`, Buffer.concat([idxBody, createHash('sha1').update(idxBody).digest()]));
  return { packFile: `${base}.pack`, idxFile: `${base}.idx` };
}

const hello = Buffer.from('hello world\n');
const helloName = objectName('blob', hello);
const helloOid = helloName.toString('hex');

describe('git: hostile pack input is refused, not read', () => {
  let work: string;
  let n = 0;
  /** A fresh bare repository holding one pack of `entries`. */
  const repoWith = (entries: Entry[]) => {
    const dir = path.join(work, `r${(n += 1)}.git`);
    execFileSync('git', ['init', '-q', '--bare', dir]);
    return { dir, ...writePack(dir, entries) };
  };
  /** Runs `read`; a CorruptPackError naming `pattern` is expected, and nothing else (not a RangeError, not content). */
  const refused = (read: () => unknown, pattern: RegExp) =>
    assert.throws(read, (err: unknown) => {
      assert.ok(err instanceof CorruptPackError, `a CorruptPackError, not ${String(err)}`);
      assert.match(err.message, pattern);
      return true;
    });

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'tessera-git-hostile-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('the hand-made pack is one git reads, and its .idx is byte for byte the one git index-pack writes', () => {
    const next = Buffer.from('hello world\nand more\n');
    const first = whole(BLOB, hello);
    const ofs = Buffer.concat([entryHeader(OFS_DELTA, insertDelta(hello.length, next).length), ofsDistance(first.length), deflateSync(insertDelta(hello.length, next))]);
    const third = Buffer.from('a third\n');
    const ref = Buffer.concat([entryHeader(REF_DELTA, insertDelta(hello.length, third).length), helloName, deflateSync(insertDelta(hello.length, third))]);
    const { dir, packFile, idxFile } = repoWith([
      { name: helloName, bytes: first },
      { name: objectName('blob', next), bytes: ofs },
      { name: objectName('blob', third), bytes: ref },
    ]);
    const gitIdx = path.join(work, 'git.idx');
    execFileSync('git', ['index-pack', '-o', gitIdx, packFile]);
    assert.ok(readFileSync(gitIdx).equals(readFileSync(idxFile)));
    const reader = new ObjectReader(dir);
    for (const content of [hello, next, third]) {
      const oid = objectName('blob', content).toString('hex');
      assert.ok(execFileSync('git', ['-C', dir, 'cat-file', 'blob', oid]).equals(content));
      assert.ok(reader.read(oid)?.content.equals(content));
      assert.equal(reader.size(oid), content.length);
    }
  });

  test('an entry header claiming far more than its bytes can inflate to is refused before zlib allocates it', () => {
    // 2^31 is under zlib's largest output chunk: it was allocated, and the header's size answered.
    for (const size of [2 ** 31, 2 ** 40]) {
      const { dir } = repoWith([{ name: helloName, bytes: whole(BLOB, hello, size) }]);
      refused(() => new ObjectReader(dir).read(helloOid), new RegExp(`size ${size} is more than`));
      refused(() => new ObjectReader(dir).size(helloOid), new RegExp(`size ${size} is more than`));
    }
  });

  test('an entry that inflates to other than its header\'s size is an error, not content', () => {
    for (const size of [hello.length + 5, hello.length - 5]) {
      const { dir } = repoWith([{ name: helloName, bytes: whole(BLOB, hello, size) }]);
      refused(() => new ObjectReader(dir).read(helloOid), size > hello.length ? new RegExp(`inflates to ${hello.length} bytes, its header says ${size}`) : new RegExp(`inflates to more than the ${size} bytes its header says`));
    }
  });

  test('one byte changed inside a deflated entry is an error, and the next object still reads', () => {
    const other = Buffer.from('another file\n');
    const bad = whole(BLOB, hello);
    // Inside the deflated bytes (past the 1-byte header and zlib's 2-byte header): a bad code or a failed Adler-32.
    bad[bad.length - 6] ^= 0x55;
    const { dir } = repoWith([
      { name: helloName, bytes: bad },
      { name: objectName('blob', other), bytes: whole(BLOB, other) },
    ]);
    const reader = new ObjectReader(dir);
    refused(() => reader.read(helloOid), new RegExp(`object ${helloOid} in pack-[0-9a-f]{40}\\.pack is corrupt`));
    assert.ok(reader.read(objectName('blob', other).toString('hex'))?.content.equals(other));
  });

  test('an OFS_DELTA whose base does not lie before it is refused: at distance 0 (itself), or before the pack\'s start', async () => {
    const delta = insertDelta(hello.length, hello);
    for (const back of [0, 12, 1000]) {
      const { dir } = repoWith([{ name: helloName, bytes: Buffer.concat([entryHeader(OFS_DELTA, delta.length), ofsDistance(back), deflateSync(delta)]) }]);
      refused(() => new ObjectReader(dir).read(helloOid), new RegExp(`base out of bounds \\(distance ${back}\\)`));
      // Not handed to isomorphic-git either: its reader recursed on distance 0 until the heap ran out.
      await assert.rejects(new ObjectStore(dir).blob(helloOid), CorruptPackError);
    }
  });

  test('a loop of REF_DELTAs (each the other\'s base) is refused', async () => {
    const other = objectName('blob', Buffer.from('other\n'));
    const delta = insertDelta(hello.length, hello);
    const refTo = (base: Buffer) => Buffer.concat([entryHeader(REF_DELTA, delta.length), base, deflateSync(delta)]);
    const { dir } = repoWith([
      { name: helloName, bytes: refTo(other) },
      { name: other, bytes: refTo(helloName) },
    ]);
    refused(() => new ObjectReader(dir).read(helloOid), /delta chain longer than 4095/);
    await assert.rejects(new ObjectStore(dir).blob(helloOid), CorruptPackError);
  });

  test('an .idx shorter than its tables is not used, and an object not found then is an error, not a read handed to isomorphic-git', async () => {
    // The pack is hostile too (a delta that is its own base): isomorphic-git, handed it, recursed until the heap ran out.
    const delta = insertDelta(hello.length, hello);
    const { dir, idxFile } = repoWith([{ name: helloName, bytes: Buffer.concat([entryHeader(OFS_DELTA, delta.length), ofsDistance(0), deflateSync(delta)]) }]);
    const idx = readFileSync(idxFile);
    // Cut inside the offsets table, and (a one-byte cut) inside the index's own checksum.
    for (const cut of [44, 1]) {
      writeFileSync(idxFile, idx.subarray(0, idx.length - cut));
      refused(() => new ObjectReader(dir).read(helloOid), /pack-[0-9a-f]{40}\.pack is not read: its \.idx is shorter than its tables/);
      refused(() => new ObjectReader(dir).size(helloOid), /is not read/);
      await assert.rejects(new ObjectStore(dir).blob(helloOid), PackNotReadError);
    }
  });

  test('a pack larger than the reader reads, or an .idx without its pack, is not handed to isomorphic-git either', async () => {
    const { dir, packFile } = repoWith([{ name: helloName, bytes: whole(BLOB, hello) }]);
    assert.ok(new ObjectReader(dir).read(helloOid)?.content.equals(hello));
    refused(() => new ObjectReader(dir, { maxPackBytes: 40 }).read(helloOid), /bytes, more than the 40 read here/);
    rmSync(packFile);
    refused(() => new ObjectReader(dir).read(helloOid), /is not read: cannot be opened/);
    await assert.rejects(new ObjectStore(dir).tree(helloOid), PackNotReadError);
  });

  test('a REF_DELTA whose base is nowhere in the repository is refused', () => {
    const missing = objectName('blob', Buffer.from('not here\n'));
    const delta = insertDelta(9, hello);
    const { dir } = repoWith([{ name: helloName, bytes: Buffer.concat([entryHeader(REF_DELTA, delta.length), missing, deflateSync(delta)]) }]);
    refused(() => new ObjectReader(dir).read(helloOid), new RegExp(`base ${missing.toString('hex')} nowhere in the repository`));
  });
});

/**
 * What a client sees of a corrupt pack: GET /git/tree answers an error body and
 * the service goes on answering. The corrupt object is the head's root tree, read
 * by the warm-up at start too (a delta that is its own base killed the process there).
 */
describe('git: /git/tree on a repository with a corrupt pack', () => {
  let issuer: TestIssuer;
  let work: string;

  before(async () => {
    issuer = await startTestIssuer();
    work = mkdtempSync(path.join(tmpdir(), 'tessera-git-corrupt-'));
  });
  after(async () => {
    await issuer?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** A one-commit repository (a.py, hello) written loose by git; `corrupt` then moves one object into a hostile pack. */
  const repository = (name: string, corrupt: (objects: { tree: Buffer; treeName: Buffer }) => Entry) => {
    const dir = path.join(work, `${name}.git`);
    execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', dir]);
    const git = (args: string[], input?: string) => execFileSync('git', ['-C', dir, ...args], { input, encoding: 'utf8' }).trim();
    const blob = git(['hash-object', '-w', '--stdin'], hello.toString());
    const treeOid = git(['mktree'], `100644 blob ${blob}\ta.py\n`);
    const commit = git(['commit-tree', treeOid, '-m', 'init']);
    git(['update-ref', 'refs/heads/main', commit]);
    const tree = execFileSync('git', ['-C', dir, 'cat-file', 'tree', treeOid]);
    const entry = corrupt({ tree, treeName: Buffer.from(treeOid, 'hex') });
    const loose = entry.name.toString('hex');
    rmSync(path.join(dir, 'objects', loose.slice(0, 2), loose.slice(2)));
    writePack(dir, [entry]);
    return dir;
  };

  const cases: [string, (o: { tree: Buffer; treeName: Buffer }) => Entry][] = [
    [
      'the root tree is a delta at distance 0, its own base',
      ({ tree, treeName }) => {
        const delta = insertDelta(tree.length, tree);
        return { name: treeName, bytes: Buffer.concat([entryHeader(OFS_DELTA, delta.length), ofsDistance(0), deflateSync(delta)]) };
      },
    ],
    ['the blob\'s header claims 2^40 bytes', () => ({ name: helloName, bytes: whole(BLOB, hello, 2 ** 40) })],
    ['the root tree inflates to more than its header says', ({ tree, treeName }) => ({ name: treeName, bytes: whole(TREE, tree, tree.length - 1) })],
  ];
  for (const [name, corrupt] of cases) {
    test(`${name}: a 500 with an error body, and the service goes on`, async () => {
      const dir = repository(name.replace(/\W+/g, '-'), corrupt);
      let t: TestApp | undefined;
      try {
        t = await startTestApp(issuer.apiUrl, { gitRepoDir: dir });
        const { app } = t;
        const token = await issuer.sign({ sub: 'u-1', username: 'carol', role: 'user' });
        for (let i = 0; i < 2; i += 1) {
          const res = await app.inject({ method: 'GET', url: '/git/tree', headers: { authorization: `Bearer ${token}` } });
          assert.equal(res.statusCode, 500, res.body);
          assert.deepEqual(res.json(), { error: { code: 'internal_error', message: 'Internal server error' } });
        }
        const health = await app.inject({ method: 'GET', url: '/health' });
        assert.equal(health.statusCode, 200);
      } finally {
        await t?.close();
      }
    });
  }
});
