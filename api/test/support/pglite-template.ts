import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database.js';

const MIGRATIONS_SOURCE = new URL('../../src/db/migrations.ts', import.meta.url);
const PGLITE_PACKAGE = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url);

/**
 * A migrated, empty PGlite data folder, made once per machine (per PGlite version and
 * migrations source) and copied for each test app: a fresh PGlite initdb takes several
 * seconds, a copy and an open well under half that.
 */
export async function pgliteTemplate(): Promise<string> {
  const hash = crypto.createHash('sha256').update(await fs.readFile(MIGRATIONS_SOURCE)).update(await fs.readFile(PGLITE_PACKAGE));
  // Features keep their migrations beside them (src/<feature>/*.migration.ts): each counts.
  const src = new URL('../../src/', import.meta.url);
  for (const file of (await fs.readdir(src, { recursive: true })).filter((f) => f.endsWith('.migration.ts')).sort()) {
    hash.update(await fs.readFile(new URL(file, src)));
  }
  const key = hash.digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), `tessera-api-pglite-template-${key}`);
  try {
    await fs.access(path.join(dir, 'PG_VERSION'));
    return dir;
  } catch {
    // not made yet
  }
  const building = `${dir}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  const db = await openDatabase({ pgliteDir: building });
  await db.destroy();
  try {
    await fs.rename(building, dir);
  } catch (err) {
    // Another test process finished its template first: use that one.
    if (!['EEXIST', 'ENOTEMPTY'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    await fs.rm(building, { recursive: true, force: true });
  }
  return dir;
}
