import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { madeOnce } from '@tessera/server-kit';
import { openDatabase } from '../../src/db/database.js';

/**
 * A migrated, empty copy of the middleware's PGlite folder (`<dataDir>/ai`), made once per
 * machine (per PGlite version and migrations source) and copied into each test app's data
 * folder: a fresh PGlite initdb plus migrations took 6 to 13 s per app under CI load, a copy
 * and an open about a second. The app still runs its migrations on the copy (a no-op), and
 * test/database.test.ts keeps migrating an empty folder.
 */
export async function pgliteTemplate(): Promise<string> {
  const sources = [
    new URL('../../src/db/migrations.ts', import.meta.url),
    new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
  ].map((url) => fileURLToPath(url));
  const dir = await madeOnce('ai-pglite-template', sources, async (dataDir) => (await openDatabase({ dataDir })).destroy());
  return path.join(dir, 'ai');
}
