import zlib from 'node:zlib';
import { workbookTooLargeMessage } from '@tessera/contracts';
import { ParseError } from './delimited-text.js';

/**
 * The parts of a zip (an .xlsx), inflated under a byte budget. The central directory's declared
 * sizes are summed before anything is inflated, and each part is inflated with a limit on its
 * actual output, so a part that lies about its size is stopped as soon as it passes the budget:
 * a zip bomb costs at most the budget in memory, never what it would expand to.
 */

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const MAX32 = 0xffffffff;

export interface ZipPart {
  name: string;
  bytes: Buffer;
}

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const damaged = (why: string) => new ParseError(`The workbook could not be read: ${why}`);

function endOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  const stop = Math.max(0, zip.length - 22 - 0xffff);
  for (let i = zip.length - 22; i >= stop; i--) if (zip.readUInt32LE(i) === EOCD) return i;
  throw damaged('its zip directory is missing');
}

/** A ZIP64 extra field's 8-byte sizes, for the fields the entry marks as 0xFFFFFFFF (in the spec's order). */
function zip64Sizes(extra: Buffer, entry: { size: number; compressedSize: number; localOffset: number }): void {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA) {
      let p = at + 4;
      const next = () => {
        if (p + 8 > at + 4 + length) throw damaged('a ZIP64 size is cut short');
        const v = Number(extra.readBigUInt64LE(p));
        p += 8;
        return v;
      };
      if (entry.size === MAX32) entry.size = next();
      if (entry.compressedSize === MAX32) entry.compressedSize = next();
      if (entry.localOffset === MAX32) entry.localOffset = next();
      return;
    }
    at += 4 + length;
  }
}

/** The central directory's entries, with the sizes they declare. */
export function zipEntries(zip: Buffer): Entry[] {
  if (zip.length < 22) throw damaged('it is too short to be a zip');
  const end = endOfCentralDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  const offset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || offset === MAX32) throw damaged('ZIP64 directories are not supported');
  const entries: Entry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw damaged('its zip directory is damaged');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    if (at + 46 + nameLength + extraLength > zip.length) throw damaged('its zip directory is damaged');
    const entry: Entry = {
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
    };
    zip64Sizes(zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Every file part of the zip, inflated; beyond `maxBytes` in all (declared or actual) a ParseError with workbookTooLargeMessage. */
export function inflateZip(zip: Buffer, maxBytes: number, maxMb: number): ZipPart[] {
  const tooLarge = () => new ParseError(workbookTooLargeMessage(maxMb));
  const entries = zipEntries(zip).filter((e) => !e.name.endsWith('/'));
  let declared = 0;
  for (const e of entries) declared += e.size;
  if (declared > maxBytes) throw tooLarge();
  const parts: ZipPart[] = [];
  let inflated = 0;
  for (const e of entries) {
    if (e.flags & 0x1) throw damaged(`its part ${e.name} is encrypted`);
    const local = e.localOffset;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL) throw damaged(`its part ${e.name} is missing`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + e.compressedSize > zip.length) throw damaged(`its part ${e.name} is cut short`);
    const raw = zip.subarray(start, start + e.compressedSize);
    let bytes: Buffer;
    if (e.method === 0) bytes = raw;
    else if (e.method === 8) {
      try {
        // The limit stops the inflate as its output passes what is left of the budget, whatever the part declared.
        bytes = zlib.inflateRawSync(raw, { maxOutputLength: Math.max(1, maxBytes - inflated) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
        throw damaged(`its part ${e.name} does not inflate (${(err as Error).message})`);
      }
    } else throw damaged(`its part ${e.name} uses zip compression method ${e.method}`);
    inflated += bytes.length;
    if (inflated > maxBytes) throw tooLarge();
    parts.push({ name: e.name, bytes });
  }
  return parts;
}
