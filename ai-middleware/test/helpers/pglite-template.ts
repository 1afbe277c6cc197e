import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database.js';

const MIGRATIONS_SOURCE = new URL('../../src/db/migrations.ts', import.meta.url);
const PGLITE_PACKAGE = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url);

/**
 * A migrated, empty copy of the middleware's PGlite folder (`<dataDir>/ai`), made once per
 * machine (per PGlite version and migrations source) and copied into each test app's data
 * folder: a fresh PGlite initdb plus migrations took 6 to 13 s per app under CI load, a copy
 * and an open about a second. The app still runs its migrations on the copy (a no-op), and
 * test/database.test.ts keeps migrating an empty folder. The api's test support has the same
 * helper for the api's own database (api/test/support/pglite-template.ts).
 */
export async function pgliteTemplate(): Promise<string> {
  const key = crypto
    .createHash('sha256')
    .update(await fs.readFile(MIGRATIONS_SOURCE))
    .update(await fs.readFile(PGLITE_PACKAGE))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(os.tmpdir(), `tessera-ai-pglite-template-${key}`);
  try {
    await fs.access(path.join(dir, 'ai', 'PG_VERSION'));
    return path.join(dir, 'ai');
  } catch {
    // not made yet
  }
  const building = `${dir}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  const db = await openDatabase({ dataDir: building });
  await db.destroy();
  try {
    await fs.rename(building, dir);
  } catch (err) {
    // Another test process finished its template first: use that one.
    if (!['EEXIST', 'ENOTEMPTY'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    await fs.rm(building, { recursive: true, force: true });
  }
  return path.join(dir, 'ai');
}
