import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { madeOnce } from '@tessera/server-kit';
import { openDatabase } from '../../src/db/database.js';

/**
 * A migrated, empty PGlite data folder, made once per machine (per PGlite version and
 * migrations source) and copied for each test app: a fresh PGlite initdb takes several
 * seconds, a copy and an open well under half that.
 */
export async function pgliteTemplate(): Promise<string> {
  const src = new URL('../../src/', import.meta.url);
  // Features keep their migrations beside them (src/<feature>/*.migration.ts): each counts.
  const migrations = (await fs.readdir(src, { recursive: true })).filter((f) => f.endsWith('.migration.ts')).sort();
  const sources = [
    new URL('../../src/db/migrations.ts', import.meta.url),
    new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
    ...migrations.map((file) => new URL(file, src)),
  ].map((url) => fileURLToPath(url));
  return madeOnce('api-pglite-template', sources, async (dir) => (await openDatabase({ pgliteDir: dir })).destroy());
}
