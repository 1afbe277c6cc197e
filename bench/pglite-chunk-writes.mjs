// Where PGlite's share of an import goes (issue 23, import target): the ways of writing 10 MB of
// chunk text (200 chunks of 500 rows × 10 cells, about what a 100,000-row CSV import writes), each
// in a fresh table of the same PGlite folder, three rounds (the first one warms PGlite up):
//   - the import's way: multi-row INSERTs of JSON text as parameters (100 chunks a statement),
//     `rows json` with STORAGE EXTERNAL (migration 0014);
//   - the same into a `text` column (is json_in's validation a cost?);
//   - the same with migration 0011's triggers (a size per chunk, the sheet's total per insert);
//   - the same with default storage (compressed): why 0014 stores chunks uncompressed;
//   - COPY ... FROM '/dev/blob' (PGlite's `blob` query option), text format;
//   - the snapshot of the first version: captureSnapshot's INSERT ... SELECT copy of every chunk.
// Prints wall and CPU time per way, and the load average (a busy machine stretches wall time most).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { requireFromApi } from './support/built-api.mjs';

const { createRequire } = await import('node:module');
const fromKit = createRequire(requireFromApi.resolve('@tessera/server-kit'));
const { PGlite } = await import(pathToFileURL(fromKit.resolve('@electric-sql/pglite')).href);

const work = mkdtempSync(path.join(os.tmpdir(), 'tessera-pglite-writes-'));
const db = await PGlite.create({ dataDir: path.join(work, 'db') });
const CHUNKS = 200;
const chunks = Array.from({ length: CHUNKS }, (_, c) =>
  JSON.stringify(
    Array.from({ length: 500 }, (_, i) => {
      const r = c * 500 + i;
      return [String(r), `Name ${r}`, `City ${r % 977}`, (r * 1.37).toFixed(2), `2024-0${(r % 9) + 1}-1${r % 10}`, `C${r % 313}`, r % 2 ? 'yes' : 'no', `note, ${r}`, String(r % 50), (r * 3.1).toFixed(2)];
    }),
  ),
);
const MB = chunks.reduce((a, c) => a + c.length, 0) / 1e6;

await db.exec(`
  CREATE TABLE t_json (sheet_id int, chunk int, rows json NOT NULL, PRIMARY KEY (sheet_id, chunk));
  ALTER TABLE t_json ALTER COLUMN rows SET STORAGE EXTERNAL;
  CREATE TABLE t_text (sheet_id int, chunk int, rows text NOT NULL, PRIMARY KEY (sheet_id, chunk));
  ALTER TABLE t_text ALTER COLUMN rows SET STORAGE EXTERNAL;
  CREATE TABLE t_compressed (sheet_id int, chunk int, rows json NOT NULL, PRIMARY KEY (sheet_id, chunk));
  CREATE TABLE t_snapshot (sheet_id int, chunk int, rows json NOT NULL);
  ALTER TABLE t_snapshot ALTER COLUMN rows SET STORAGE EXTERNAL;
  CREATE TABLE t_sheets (id int PRIMARY KEY, byte_size bigint NOT NULL DEFAULT 0);
  CREATE TABLE t_sized (sheet_id int, chunk int, rows json NOT NULL, bytes int NOT NULL DEFAULT 0, PRIMARY KEY (sheet_id, chunk));
  ALTER TABLE t_sized ALTER COLUMN rows SET STORAGE EXTERNAL;
  CREATE FUNCTION measure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.bytes := octet_length(NEW.rows::text); RETURN NEW; END $$;
  CREATE FUNCTION count_bytes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE t_sheets SET byte_size = byte_size + NEW.bytes WHERE id = NEW.sheet_id; RETURN NULL; END $$;
  CREATE TRIGGER measure BEFORE INSERT OR UPDATE OF rows ON t_sized FOR EACH ROW EXECUTE FUNCTION measure();
  CREATE TRIGGER count_bytes AFTER INSERT ON t_sized FOR EACH ROW EXECUTE FUNCTION count_bytes();
`);

/** As grid-text-writer.ts does: 100 chunks per INSERT, the text as parameters. */
async function insertChunks(q, table, sheet) {
  for (let from = 0; from < CHUNKS; from += 100) {
    const values = [];
    const params = [];
    for (let p = from; p < Math.min(from + 100, CHUNKS); p++) {
      values.push(`($${params.length + 1}, $${params.length + 2}, $${params.length + 3})`);
      params.push(sheet, p, chunks[p]);
    }
    await q.query(`INSERT INTO ${table} (sheet_id, chunk, rows) VALUES ${values.join(',')}`, params);
  }
}

/** COPY's text format: backslash, tab, newline and carriage return escaped. */
const copyField = (s) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

async function time(label, f) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await f();
  const c = process.cpuUsage(c0);
  console.log(`pglite-chunk-writes: ${label.padEnd(46)} ${(performance.now() - t0).toFixed(0).padStart(6)} ms wall ${((c.user + c.system) / 1000).toFixed(0).padStart(5)} ms CPU`);
}

try {
  console.log(`pglite-chunk-writes: ${CHUNKS} chunks, ${MB.toFixed(1)} MB of JSON text; ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  let sheet = 1;
  for (let round = 1; round <= 3; round++) {
    console.log(`pglite-chunk-writes: round ${round}`);
    await time('INSERT, json, external (the import today)', () => db.transaction((tx) => insertChunks(tx, 't_json', sheet++)));
    await time('INSERT, text column', () => db.transaction((tx) => insertChunks(tx, 't_text', sheet++)));
    await time('INSERT, json, with the 0011 size triggers', () =>
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO t_sheets (id) VALUES (${sheet})`);
        await insertChunks(tx, 't_sized', sheet++);
      }),
    );
    await time('INSERT, json, compressed (default storage)', () => db.transaction((tx) => insertChunks(tx, 't_compressed', sheet++)));
    const copied = sheet++;
    await time("COPY t_json FROM '/dev/blob' (text format)", () =>
      db.query(`COPY t_json (sheet_id, chunk, rows) FROM '/dev/blob'`, [], {
        blob: new Blob([chunks.map((c, p) => `${copied}\t${p}\t${copyField(c)}\n`).join('')]),
      }),
    );
    await time('snapshot copy: INSERT ... SELECT every chunk', () => db.query(`INSERT INTO t_snapshot SELECT sheet_id, chunk, rows FROM t_json WHERE sheet_id = ${copied}`));
  }
  console.log(`pglite-chunk-writes: load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await db.close();
  rmSync(work, { recursive: true, force: true });
}
