// CPU per live group commit (SheetsService.patchCellsBatch, what the live hub runs per group), in
// this process, on PGlite: groups of a fixed size, or of random sizes around a mean (`r25`: 1 to 49
// ops). bench/live.mjs's CPU per op depends on the group sizes, which depend on how starved the api
// is (a starved api makes bigger groups, so less CPU per op): on a shared machine it cannot tell a
// change of 10 % apart. Here the sizes are given, so an A/B of a database-side change (the dialect,
// a statement, a trigger) holds still: run it alternately on both builds.
// Runs the built api (`pnpm --filter @tessera/api build`). LIVE_GROUP_SIZES (default 2,25,r25),
// LIVE_GROUPS (groups measured per size, default 200); LIVE_GROUP_STATEMENTS=1 also prints the time
// each SQL text took (wall time of PGlite's query/exec, summed). LIVE_GROUP_GAP_MS: an idle pause
// between groups (as at 80 ops/s, where the api sleeps ~40 ms between its groups), to see what
// a group costs on a cold cache and JIT rather than back to back (the pauses are not counted).
// LIVE_GROUP_SHEETS=N (default 1): each round submits one group to each of N sheets at once (as the
// live hub does when the groups of many slowly edited sheets become ready in one turn of the event
// loop), so a build that commits them together (cross-sheet group commit) shows its cost per op;
// "per group" is then per sheet's group.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { requireFromApi, root } from './support/built-api.mjs';

const SIZES = (process.env.LIVE_GROUP_SIZES ?? '2,25,r25').split(',');
const GROUPS = Number(process.env.LIVE_GROUPS ?? 200);
const WARM_UP = 30;
const GAP_MS = Number(process.env.LIVE_GROUP_GAP_MS ?? 0);
const SHEETS = Number(process.env.LIVE_GROUP_SHEETS ?? 1);
const sizeOf = (s) => (s.startsWith('r') ? 1 + Math.floor(Math.random() * (2 * Number(s.slice(1)) - 1)) : Number(s));

const { PGlite } = await import(requireFromApi.resolve('@electric-sql/pglite'));
const { createPGliteDialect } = await import(requireFromApi.resolve('@tessera/server-kit'));
const { Kysely } = await import(requireFromApi.resolve('kysely'));
const { migrateToLatest } = await import(path.join(root, 'api/dist/db/migrations.js'));
const { SheetsService } = await import(path.join(root, 'api/dist/sheets/sheets.service.js'));

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-group-cpu-'));
const pglite = await PGlite.create({ dataDir: path.join(dir, 'db') });
const statements = new Map();
let measuring = false;
// The dialect talks to PGlite's protocol directly (prepared statements), so the time per SQL text is Kysely's own log.
const log = process.env.LIVE_GROUP_STATEMENTS === '1'
  ? (event) => {
      if (!measuring) return;
      const key = event.query.sql.replace(/\s+/g, ' ').slice(0, 110);
      const s = statements.get(key) ?? { n: 0, ms: 0 };
      s.n += 1;
      s.ms += event.queryDurationMillis;
      statements.set(key, s);
    }
  : undefined;
const db = new Kysely({ dialect: createPGliteDialect(pglite), ...(log ? { log } : {}) });
try {
  await migrateToLatest(db);
  const userId = crypto.randomUUID();
  await db.insertInto('users').values({ id: userId, username: 'bench', password_hash: 'x', role: 'admin' }).execute();
  const sheets = new SheetsService(db);
  // The live benchmark's sheet (100 × 26), filled: one chunk of about 12 KB.
  const data = Array.from({ length: 100 }, (_, r) => Array.from({ length: 26 }, (_, c) => r * 26 + c));
  const all = [];
  for (let i = 0; i < SHEETS; i++) all.push(await sheets.create({ name: `group cpu ${i}`, data }, userId));
  /** One group to each sheet at once. */
  const round = (n) => Promise.all(all.map((sheet) => sheets.patchCellsBatch(sheet.id, group(typeof n === 'number' ? n : n()), 'live-socket')));
  let next = 0;
  const group = (n) =>
    Array.from({ length: n }, () => ({ userId, opId: `g${next++}`, changes: [{ row: Math.floor(Math.random() * 100), col: Math.floor(Math.random() * 26), value: next }] }));
  for (const s of SIZES) for (let i = 0; i < WARM_UP; i++) await round(() => sizeOf(s));
  measuring = true;
  const figures = [];
  for (const s of SIZES) {
    let ops = 0;
    const before = process.cpuUsage();
    for (let i = 0; i < GROUPS; i++) {
      await round(() => {
        const n = sizeOf(s);
        ops += n;
        return n;
      });
      if (GAP_MS > 0) await new Promise((r) => setTimeout(r, GAP_MS));
    }
    const cpu = process.cpuUsage(before);
    const ms = (cpu.user + cpu.system) / 1000;
    figures.push(`groups of ${s}: ${(ms / (GROUPS * SHEETS)).toFixed(2)} ms per group, ${(ms / ops).toFixed(3)} ms per op`);
  }
  console.log(`${figures.join(' | ')} (${SHEETS > 1 ? `${SHEETS} sheets' groups at once; ` : ''}CPU of this process${GAP_MS > 0 ? `, ${GAP_MS} ms idle between groups` : ''}; load average ${os.loadavg()[0].toFixed(1)})`);
  if (statements.size > 0) {
    for (const [text, s] of [...statements].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20)) {
      console.log(`${s.ms.toFixed(0).padStart(7)} ms ${String(s.n).padStart(6)}× ${((1000 * s.ms) / s.n).toFixed(0).padStart(6)} µs  ${text}`);
    }
  }
} finally {
  await db.destroy();
  await fs.rm(dir, { recursive: true, force: true });
}
