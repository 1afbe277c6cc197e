import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateExact, inflateLoose, looseSize } from './inflate.js';

/** A git object as stored: its type and its content (header removed). */
export interface RawObject {
  type: 'commit' | 'tree' | 'blob' | 'tag';
  content: Buffer;
}

const TYPES = [undefined, 'commit', 'tree', 'blob', 'tag'] as const;
const OFS_DELTA = 6;
const REF_DELTA = 7;
/**
 * The largest pack read (held in memory whole): what readFileSync reads at once. isomorphic-git,
 * once handed larger packs, read them whole too, and its pack reader loops on hostile ones.
 */
const MAX_PACK_BYTES = 2 ** 31 - 1;
/** Inflated pack objects kept for delta chains (bytes). */
const CACHE_BUDGET = 64 * 1024 * 1024;
/** git refuses a delta chain longer than this (pack.depth's maximum): a longer one here is a loop of REF_DELTAs. */
const MAX_DELTA_DEPTH = 4095;

/**
 * A pack entry that cannot be what git wrote. Thrown, never answered with null:
 * null sends the caller to isomorphic-git, whose pack reader recurses on some of
 * these (a zero OFS_DELTA distance, a loop of REF_DELTAs), copying the rest of
 * the pack at each step, until the heap runs out and the process dies.
 */
export class CorruptPackError extends Error {
  override name = 'CorruptPackError';
  /** `located`: the message already names the object and its pack (a delta's base, read for it). */
  constructor(
    message: string,
    readonly located = false,
  ) {
    super(message);
  }
}

/**
 * An object asked for is in no pack read here, nor loose, while the pack folder holds a
 * pack this reader does not read (too large, an index not v2 or cut short). Thrown, not
 * answered with null: the caller would hand the read to isomorphic-git, which would read
 * that pack with no such checks (and hold it whole in memory: it reads packs whole).
 */
export class PackNotReadError extends CorruptPackError {
  override name = 'PackNotReadError';
}

interface Pack {
  /** The .idx v2 tables. */
  fanout: Uint32Array;
  names: Buffer;
  offsets: Buffer;
  largeOffsets: Buffer;
  count: number;
  data: Buffer;
  id: string;
  /** Inflated objects of this pack: offset → entry of the ObjectCache (number keys and values: no object per entry). */
  cache: Map<number, number>;
}

/** The largest buffer kept for delta instructions (see ObjectReader.scratch). */
const SCRATCH_MAX = 4 * 1024 * 1024;
/** Objects are laid end to end in buffers this large; one over an eighth of it gets a buffer of its own. */
const SLAB_BYTES = 1024 * 1024;

/**
 * The inflated pack objects kept for delta chains (`budget` bytes, CACHE_BUDGET unless a test says). Their bytes lie end to
 * end in a few large buffers, their places in arrays of small numbers: no buffer nor object per
 * entry. A cold walk over a long history keeps tens of thousands of objects, and as a buffer and
 * an object each they were most of what the young-generation GCs copied and promoted during the
 * first /git/tree (about a fifth of its time, and the full GC that followed). A slab is never
 * written again once given out: when the budget is spent the cache starts over in new slabs, and
 * the views handed out keep theirs alive.
 */
class ObjectCache {
  constructor(private readonly budget: number) {}

  private slabs: Buffer[] = [];
  private used = SLAB_BYTES;
  private bytes = 0;
  private readonly slabOf: number[] = [];
  private readonly startOf: number[] = [];
  private readonly lengthOf: number[] = [];
  private readonly kindOf: number[] = [];
  /** The packs' offset maps with entries here: cleared with it. */
  private readonly maps = new Set<Map<number, number>>();

  get(pack: Pack, offset: number): RawObject | null {
    const entry = pack.cache.get(offset);
    if (entry === undefined) return null;
    const start = this.startOf[entry];
    return { type: TYPES[this.kindOf[entry]]!, content: this.slabs[this.slabOf[entry]].subarray(start, start + this.lengthOf[entry]) };
  }

  sizeOf(pack: Pack, offset: number): number | null {
    const entry = pack.cache.get(offset);
    return entry === undefined ? null : this.lengthOf[entry];
  }

  /**
   * A view of `size + spare` bytes to write an object to be kept into (the spare ones are not kept);
   * null when an object that large is not kept (the caller allocates its own). Starts over first
   * when the budget would be passed.
   */
  take(size: number, spare = 0): Buffer | null {
    if (size > this.budget / 16) return null;
    if (this.bytes + size > this.budget) this.clear();
    const bytes = size + spare;
    if (bytes > SLAB_BYTES / 8) {
      this.slabs.push(Buffer.allocUnsafeSlow(bytes));
      this.used = SLAB_BYTES;
      return this.slabs[this.slabs.length - 1];
    }
    if (this.used + bytes > SLAB_BYTES) {
      this.slabs.push(Buffer.allocUnsafeSlow(SLAB_BYTES));
      this.used = 0;
    }
    const at = this.used;
    this.used += bytes;
    return this.slabs[this.slabs.length - 1].subarray(at, at + bytes);
  }

  /** Keeps `content`, written into the last view `take` gave (its spare bytes go back to the slab). */
  keep(pack: Pack, offset: number, type: RawObject['type'], content: Buffer): void {
    const slab = this.slabs.length - 1;
    const start = content.byteOffset - this.slabs[slab].byteOffset;
    if (this.used !== SLAB_BYTES) this.used = start + content.length;
    const entry = this.kindOf.length;
    this.slabOf.push(slab);
    this.startOf.push(start);
    this.lengthOf.push(content.length);
    this.kindOf.push(TYPES.indexOf(type));
    pack.cache.set(offset, entry);
    this.maps.add(pack.cache);
    this.bytes += content.length;
  }

  private clear(): void {
    for (const map of this.maps) map.clear();
    this.maps.clear();
    this.slabs = [];
    this.used = SLAB_BYTES;
    this.bytes = 0;
    this.slabOf.length = this.startOf.length = this.lengthOf.length = this.kindOf.length = 0;
  }
}

/**
 * Reads git objects straight from the repository folder with Node's native
 * zlib. isomorphic-git inflates with pako (pure JS) and checks every object's
 * SHA-1 on each read, about 0.5 ms an object: a cold walk over 10,000 commits
 * took 6–12 s. This reader does the same walk in a fraction of a second.
 * It answers null for an object it cannot find (the caller then asks
 * isomorphic-git, which finds none either); when the folder holds a pack it
 * does not read (an .idx other than v2 or cut short, a pack over 2 GB), such a
 * miss is a PackNotReadError instead: that pack is not handed to isomorphic-git.
 */
export class ObjectReader {
  private packs: Pack[] | null = null;
  private packDirStamp = -1;
  private readonly cache: ObjectCache;
  /** An id being looked up, parsed from hex here (no buffer per read); used until the read returns. */
  private readonly name = Buffer.alloc(20);
  /** A delta's instructions, inflated here: they are read once, while the delta is applied. */
  private scratch = Buffer.allocUnsafeSlow(64 * 1024);
  /** Packs of the folder not read, each with why (PackNotReadError's message). */
  private declined: string[] = [];
  private readonly maxPackBytes: number;

  /** `maxPackBytes`, `cacheBytes`: for tests, lower limits than MAX_PACK_BYTES and CACHE_BUDGET. */
  constructor(
    private readonly gitdir: string,
    options: { maxPackBytes?: number; cacheBytes?: number } = {},
  ) {
    this.maxPackBytes = options.maxPackBytes ?? MAX_PACK_BYTES;
    this.cache = new ObjectCache(options.cacheBytes ?? CACHE_BUDGET);
  }

  /** Null for an object found nowhere, unless a pack was not read: then it may be there, and that is an error. */
  private missing(oid: string): null {
    if (this.declined.length) throw new PackNotReadError(`git: object ${oid} is in no pack read here, and ${this.declined.join('; ')}`, true);
    return null;
  }

  /**
   * The object, or null when it is not found here; a CorruptPackError when its pack entry is
   * corrupt, a PackNotReadError when it is not found and a pack of the folder was not read.
   */
  read(oid: string): RawObject | null {
    // Packs first: a lookup in memory; a loose miss costs a failed file open.
    return this.readPacked(oid, false) ?? this.readLoose(oid) ?? this.readPacked(oid, true) ?? this.missing(oid);
  }

  /**
   * As read, for an id given as its 20 bytes (a tree entry's): the packs are searched with
   * them as they are, and a hex id is made only when the object is not found there.
   */
  readId(name: Uint8Array): RawObject | null {
    return this.readPacked('', false, name) ?? this.read(Buffer.from(name.buffer, name.byteOffset, name.length).toString('hex'));
  }

  /**
   * The size of an object's content without reading it whole: from the pack
   * entry's header, or for a delta the result size at the head of the delta
   * (its base is not read); for a loose object, from the first inflated bytes.
   * Null when the object is not found here (errors as read's).
   */
  size(oid: string): number | null {
    return this.sizePacked(oid, false) ?? this.sizeLoose(oid) ?? this.sizePacked(oid, true) ?? this.missing(oid);
  }

  private sizePacked(oid: string, rescan: boolean): number | null {
    if (rescan && !this.packDirChanged()) return null;
    const name = Buffer.from(oid, 'hex');
    if (name.length !== 20) return null;
    for (const pack of this.loadPacks(rescan)) {
      const index = findName(pack, name);
      if (index < 0) continue;
      const offset = packOffset(pack, index);
      const cached = this.cache.sizeOf(pack, offset);
      if (cached !== null) return cached;
      const { data } = pack;
      const { kind, size, next } = entryHeader(data, offset);
      let p = next;
      if (kind === OFS_DELTA) {
        while (data[p++] & 0x80);
      } else if (kind === REF_DELTA) {
        p += 20;
      } else {
        checkSize(size, data.length - p);
        return size;
      }
      // The delta's first bytes: its base's size, then the result's (two varints).
      const delta = inflateEntry(data, p, size);
      let q = 0;
      while (delta[q++] & 0x80);
      return readVarint(delta, q);
    }
    return null;
  }

  private sizeLoose(oid: string): number | null {
    let file: Buffer;
    try {
      file = readFileSync(path.join(this.gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
    } catch {
      return null;
    }
    // `<type> <size>\0` leads the object: its first inflated bytes hold it.
    return looseSize(file);
  }

  private readLoose(oid: string): RawObject | null {
    let file: Buffer;
    try {
      file = readFileSync(path.join(this.gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
    } catch {
      return null;
    }
    const object = inflateLoose(file);
    const type = object?.type as RawObject['type'] | undefined;
    if (!object || !type || !TYPES.includes(type)) return null;
    return { type, content: object.content };
  }

  /**
   * Looks the object up in the packs; with `rescan`, first re-reads the pack folder (git gc or a push may have added packs).
   * `id`: its 20 bytes when the caller has them (then `oid` may be empty).
   */
  private readPacked(oid: string, rescan: boolean, id?: Uint8Array): RawObject | null {
    if (rescan && !this.packDirChanged()) return null;
    const packs = this.loadPacks(rescan);
    // No packs (a repository written only through isomorphic-git): no id to convert.
    if (!packs.length) return null;
    const name = id ?? hexId(oid, this.name) ?? Buffer.from(oid, 'hex');
    if (name.length !== 20) return null;
    for (const pack of packs) {
      const index = findName(pack, name);
      if (index < 0) continue;
      try {
        return this.readAt(pack, packOffset(pack, index));
      } catch (err) {
        // zlib's own refusals (a bad code, the Adler-32) and a bad delta mean the same: this entry is corrupt.
        if (err instanceof CorruptPackError && err.located) throw err;
        const reason = err instanceof Error ? err.message : String(err);
        throw new CorruptPackError(`git: object ${oid || Buffer.from(name).toString('hex')} in ${pack.id}.pack is corrupt: ${reason}`, true);
      }
    }
    return null;
  }

  private packDirChanged(): boolean {
    try {
      return statSync(path.join(this.gitdir, 'objects', 'pack')).mtimeMs !== this.packDirStamp;
    } catch {
      return false;
    }
  }

  private loadPacks(force: boolean): Pack[] {
    if (this.packs && !force) return this.packs;
    const dir = path.join(this.gitdir, 'objects', 'pack');
    const packs: Pack[] = [];
    const declined: string[] = [];
    let files: string[] = [];
    try {
      this.packDirStamp = statSync(dir).mtimeMs;
      files = readdirSync(dir);
    } catch {
      // No pack folder: every object is loose.
    }
    for (const file of files) {
      if (!file.endsWith('.idx')) continue;
      const id = file.slice(0, -4);
      const known = this.packs?.find((p) => p.id === id);
      let pack: Pack | string;
      try {
        pack = known ?? openPack(dir, id, this.maxPackBytes);
      } catch (err) {
        pack = `cannot be opened (${err instanceof Error ? err.message : String(err)})`;
      }
      if (typeof pack === 'string') declined.push(`${id}.pack is not read: ${pack}`);
      else packs.push(pack);
    }
    this.packs = packs;
    this.declined = declined;
    return packs;
  }

  /**
   * The object at `offset`. A delta chain is followed down to a whole object (or one
   * in the cache) in a loop, then its deltas applied back up: no recursion, so a long
   * chain cannot overflow the stack, and a loop of REF_DELTAs ends at git's depth limit.
   */
  private readAt(pack: Pack, offset: number): RawObject | null {
    const chain: { pack: Pack; offset: number; at: number; size: number }[] = [];
    let current = pack;
    let at = offset;
    let object: RawObject | null;
    for (;;) {
      const hit = this.cache.get(current, at);
      if (hit) {
        object = hit;
        break;
      }
      if (chain.length > MAX_DELTA_DEPTH) throw new CorruptPackError(`a delta chain longer than ${MAX_DELTA_DEPTH} (a loop)`);
      const { data } = current;
      // The entries lie between the pack's 12-byte header and its 20-byte checksum.
      if (!(at >= 12 && at < data.length - 20)) throw new CorruptPackError(`entry offset ${at} outside the pack`);
      const { kind, size, next } = entryHeader(data, at);
      let p = next;
      if (kind === OFS_DELTA) {
        let c = data[p++];
        let back = c & 0x7f;
        while (c & 0x80) {
          c = data[p++];
          back = (back + 1) * 128 + (c & 0x7f);
        }
        // A base lies before its delta in the pack: anything else is corrupt (a zero distance was a loop).
        if (!(back > 0 && back <= at - 12)) throw new CorruptPackError(`the delta at ${at} has its base out of bounds (distance ${back})`);
        chain.push({ pack: current, offset: at, at: p, size });
        at -= back;
      } else if (kind === REF_DELTA) {
        chain.push({ pack: current, offset: at, at: p + 20, size });
        const name = data.subarray(p, p + 20);
        const found = this.locate(name);
        if (found) {
          current = found.pack;
          at = found.offset;
        } else {
          const oid = name.toString('hex');
          object = this.readLoose(oid) ?? this.readPacked(oid, true);
          // A REF_DELTA's base is in the repository (a thin pack is completed before it is kept).
          if (!object) throw new CorruptPackError(`the REF_DELTA at ${at} has its base ${oid} nowhere in the repository`);
          break;
        }
      } else {
        const type = TYPES[kind];
        if (!type) throw new CorruptPackError(`the entry at ${at} has no object type (${kind})`);
        const into = this.cache.take(size, 1);
        object = { type, content: inflateEntry(data, p, size, into) };
        if (into) this.cache.keep(current, at, type, object.content);
        break;
      }
    }
    for (let i = chain.length - 1; i >= 0; i -= 1) {
      const delta = chain[i];
      // A large delta (a big file's) gets a buffer of its own: the scratch one stays small.
      if (this.scratch.length < delta.size + 1 && delta.size < SCRATCH_MAX) this.scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_MAX, Math.max(delta.size + 1, this.scratch.length * 2)));
      const instructions = inflateEntry(delta.pack.data, delta.at, delta.size, delta.size < this.scratch.length ? this.scratch : null);
      let kept = false;
      const content = applyDelta(object.content, instructions, (size) => {
        const into = this.cache.take(size);
        kept = into !== null;
        return into ?? Buffer.allocUnsafe(size);
      });
      object = { type: object.type, content };
      if (kept) this.cache.keep(delta.pack, delta.offset, object.type, content);
    }
    return object;
  }

  /** A REF_DELTA's base in the packs already open. */
  private locate(name: Buffer): { pack: Pack; offset: number } | null {
    for (const pack of this.packs ?? []) {
      const index = findName(pack, name);
      if (index >= 0) return { pack, offset: packOffset(pack, index) };
    }
    return null;
  }

}

/** The pack and its index, or why it is not read. */
function openPack(dir: string, id: string, maxPackBytes: number): Pack | string {
  const idx = readFileSync(path.join(dir, `${id}.idx`));
  // Only the v2 index (git's default since 1.5.2).
  if (idx.length < 8 + 256 * 4 || idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) return 'its .idx is not a v2 index';
  const packFile = path.join(dir, `${id}.pack`);
  const packBytes = statSync(packFile).size;
  if (packBytes > maxPackBytes) return `${packBytes} bytes, more than the ${maxPackBytes} read here`;
  const fanout = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) fanout[i] = idx.readUInt32BE(8 + i * 4);
  const count = fanout[255];
  const namesAt = 8 + 256 * 4;
  const offsetsAt = namesAt + count * 20 + count * 4;
  const largeAt = offsetsAt + count * 4;
  // The tables, then the pack's and the index's own checksums: a shorter file is not a usable index.
  if (idx.length < largeAt + 40) return 'its .idx is shorter than its tables';
  return {
    fanout,
    count,
    names: idx.subarray(namesAt, namesAt + count * 20),
    offsets: idx.subarray(offsetsAt, largeAt),
    largeOffsets: idx.subarray(largeAt),
    data: readFileSync(packFile),
    id,
    cache: new Map(),
  };
}

/** A hex digit's value, or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** A 40-digit hex id parsed into `into`; null for anything else (then Buffer.from decides, as before). */
function hexId(oid: string, into: Buffer): Buffer | null {
  if (oid.length !== 40) return null;
  for (let i = 0; i < 20; i += 1) {
    const hi = hexDigit(oid.charCodeAt(2 * i));
    const lo = hexDigit(oid.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    into[i] = hi * 16 + lo;
  }
  return into;
}

/** Binary search of a 20-byte name in the sorted name table; -1 when absent. Compares bytes in JS: Buffer#compare with offsets costs more than the search. */
function findName(pack: Pack, name: Uint8Array): number {
  const names = pack.names;
  let lo = name[0] === 0 ? 0 : pack.fanout[name[0] - 1];
  let hi = pack.fanout[name[0]];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const base = mid * 20;
    let cmp = 0;
    for (let i = 1; i < 20; i += 1) {
      const d = name[i] - names[base + i];
      if (d !== 0) {
        cmp = d;
        break;
      }
    }
    if (cmp === 0) return mid;
    if (cmp > 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

function packOffset(pack: Pack, index: number): number {
  const small = pack.offsets.readUInt32BE(index * 4);
  if (!(small & 0x80000000)) return small;
  return Number(pack.largeOffsets.readBigUInt64BE((small & 0x7fffffff) * 8));
}

/** A pack entry's deflated data from `at`, inflated: `size` bytes, as its header says, or an error. `into`: see inflateExact. */
function inflateEntry(data: Buffer, at: number, size: number, into?: Buffer | null): Buffer {
  checkSize(size, data.length - at);
  return inflateExact(data, size, into ?? undefined, 0, at);
}

/**
 * Deflate expands at most about 1,032 to 1: a larger size over the bytes left in the pack
 * is a corrupt header, refused before zlib allocates anything that size.
 */
function checkSize(size: number, available: number): void {
  if (!(size <= available * 1032 + 64)) throw new CorruptPackError(`the entry header's size ${size} is more than its ${available} bytes can inflate to`);
}

/** A pack entry's header: its kind, its inflated size, and where the rest of the entry starts. */
function entryHeader(data: Buffer, offset: number): { kind: number; size: number; next: number } {
  let p = offset;
  let c = data[p++]!;
  const kind = (c >> 4) & 7;
  let size = c & 15;
  let shift = 16;
  while (c & 0x80) {
    c = data[p++]!;
    size += (c & 0x7f) * shift;
    shift *= 128;
  }
  return { kind, size, next: p };
}

/** A little-endian base-128 number (git's delta header), from `at`. */
function readVarint(buf: Buffer, at: number): number {
  let value = 0;
  let shift = 1;
  let p = at;
  let c: number;
  do {
    c = buf[p++];
    value += (c & 0x7f) * shift;
    shift *= 128;
  } while (c & 0x80);
  return value;
}

/**
 * Git's delta format: source and target sizes, then copy (from the base) and insert instructions.
 * `target`, when given, supplies the result's buffer (exactly the size asked) instead of a new one.
 */
export function applyDelta(base: Buffer, delta: Buffer, target?: (size: number) => Buffer): Buffer {
  let p = 0;
  const varint = () => {
    let value = 0;
    let shift = 1;
    let c: number;
    do {
      c = delta[p++];
      value += (c & 0x7f) * shift;
      shift *= 128;
    } while (c & 0x80);
    return value;
  };
  const sourceSize = varint();
  if (sourceSize !== base.length) throw new Error('git delta: base size mismatch');
  const targetSize = varint();
  const out = target ? target(targetSize) : Buffer.allocUnsafe(targetSize);
  let o = 0;
  while (p < delta.length) {
    const op = delta[p++];
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let i = 0; i < 4; i += 1) if (op & (1 << i)) offset += delta[p++] * 2 ** (8 * i);
      for (let i = 0; i < 3; i += 1) if (op & (0x10 << i)) size += delta[p++] << (8 * i);
      if (size === 0) size = 0x10000;
      // A corrupt delta is an error here, not a truncated copy found later by the size check.
      if (offset + size > base.length || o + size > out.length) throw new Error('git delta: copy out of bounds');
      // A typed-array view and set(): Buffer#copy's checks and conversions cost more than the copy, per instruction.
      out.set(new Uint8Array(base.buffer, base.byteOffset + offset, size), o);
      o += size;
    } else if (op) {
      if (p + op > delta.length || o + op > out.length) throw new Error('git delta: insert out of bounds');
      out.set(new Uint8Array(delta.buffer, delta.byteOffset + p, op), o);
      o += op;
      p += op;
    } else {
      throw new Error('git delta: reserved instruction 0');
    }
  }
  if (o !== out.length) throw new Error('git delta: result size mismatch');
  return out;
}
