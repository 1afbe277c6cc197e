import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A folder `make` fills once per machine for the content of `sources` (files), then reused: the
 * tests' migrated PGlite templates (a fresh initdb plus migrations took 6 to 13 s per test app
 * under CI load, a copy about a second). Made under a private name and renamed into place, so
 * test processes started together never see a half-made folder; the first rename wins.
 */
export async function madeOnce(name: string, sources: readonly string[], make: (dir: string) => Promise<void>): Promise<string> {
  const hash = crypto.createHash('sha256');
  for (const file of sources) hash.update(await fs.readFile(file));
  const dir = path.join(os.tmpdir(), `tessera-${name}-${hash.digest('hex').slice(0, 16)}`);
  try {
    await fs.access(dir);
    return dir;
  } catch {
    // not made yet
  }
  const building = `${dir}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  await make(building);
  try {
    await fs.rename(building, dir);
  } catch (err) {
    // Another process finished first: use that one.
    if (!['EEXIST', 'ENOTEMPTY'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    await fs.rm(building, { recursive: true, force: true });
  }
  return dir;
}
