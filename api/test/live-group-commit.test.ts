import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GridData, SheetSchema, type LiveServerFrame } from '@tessera/contracts';
import { sql } from 'kysely';
import { type ApiClient, apiClient } from './support/api-client.js';
import { signupAdmin } from './support/auth-helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { applyChanges, LiveClient, listen, Replica } from './live-client.js';
import { warmLivePath } from '../src/live/live-warmup.js';
import { SheetsService } from '../src/sheets/sheets.service.js';
import { isPooledDatabase } from '../src/db/database.js';
import { JointCommits, JointPartError } from '../src/sheets/joint-commits.js';

const trimRow = (row: GridData[number]) => {
  const r = [...row];
  while (r.length > 0 && (r[r.length - 1] === '' || r[r.length - 1] === null)) r.pop();
  return r;
};

/**
 * Group commit and coalesced frames: a burst of operations on one sheet is committed in groups
 * (one transaction each), yet every operation is its own version, in order, with its own op-log
 * entry and idempotency by id; a refused operation in the burst costs only itself. The frames a
 * socket gets in one tick arrive as one message holding an array.
 */
describe('live group commit', () => {
  let t: TestApp;
  let base: string;
  let admin: { accessToken: string; userId: string };
  let api: ApiClient;
  const open: LiveClient[] = [];

  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
    api = apiClient(t.app, admin.accessToken);
    base = await listen(t.app);
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close()));
    await t.close();
  });

  const join = async (sheetId: string, since: number, label: string) => {
    const c = await LiveClient.join(base, sheetId, admin.accessToken, { since, label });
    open.push(c);
    return c;
  };

  it("the start's warm-up rehearses group commits and leaves nothing behind: no user, sheet, op or chunk, the sheets' versions as they were", async () => {
    const res = await api.post('/api/v1/sheets', { name: 'Before the warm-up', data: [['a', 'b']] });
    assert.equal(res.statusCode, 201, res.body);
    const counts = async () => {
      const row = await sql<Record<string, number>>`SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM sheets) AS sheets,
        (SELECT count(*)::int FROM sheet_ops) AS ops, (SELECT count(*)::int FROM sheet_chunks) AS chunks, (SELECT sum(version)::int FROM sheets) AS versions`.execute(t.app.db);
      return row.rows[0];
    };
    const before = await counts();
    const list = (await api.get('/api/v1/sheets')).json();
    const warm = await warmLivePath(new SheetsService(t.app.db), 50);
    assert.ok(warm.rounds > 0 && warm.versions >= warm.rounds * 35, `it wrote nothing: ${JSON.stringify(warm)}`);
    assert.deepEqual(await counts(), before);
    assert.deepEqual((await api.get('/api/v1/sheets')).json(), list);
  });

  it('a burst from several sockets: one version and one op-log entry per operation, in order, ids idempotent, a refused op alone refused', async () => {
    const res = await api.post('/api/v1/sheets', { name: 'Group commit', metadata: { rows: 4, columns: 4 } });
    assert.equal(res.statusCode, 201, res.body);
    const sheet = SheetSchema.parse(res.json());
    const writers = await Promise.all([0, 1, 2].map((i) => join(sheet.id, sheet.version, `writer ${i}`)));
    const watcher = await join(sheet.id, sheet.version, 'watcher');
    const replicas = [...writers, watcher].map(() => new Replica(structuredClone(sheet.data), sheet.version));

    const PER_WRITER = 120;
    const sent: string[] = [];
    for (let k = 0; k < PER_WRITER; k++) {
      for (const [i, w] of writers.entries()) {
        const id = `g${i}-${k}`;
        const changes = k % 10 === 3 ? [{ row: k, col: i, value: id }, { row: k, col: i + 4, value: `${id}+` }] : [{ row: k, col: i, value: id }];
        replicas[i].sent.set(id, changes);
        w.send({ type: 'operation', sheet_id: sheet.id, operation: changes.length === 1 ? { id, type: 'cell_update', position: { row: k, column: i }, value: id } : { id, type: 'cells_update', changes } });
        sent.push(id);
      }
    }
    // In the same burst: a removal outside the sheet (refused), and a re-send of an id already sent (acked once more, not applied again).
    writers[0].send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'bad-remove', type: 'rows_remove', index: 5000, count: 1 } });
    writers[1].send({ type: 'operation', sheet_id: sheet.id, operation: { id: 'g1-0', type: 'cell_update', position: { row: 0, column: 1 }, value: 'again' } });

    const refused = await writers[0].next('error', (f) => f.data.operation_id === 'bad-remove');
    assert.equal(refused.data.code, 'bad_request');
    const last = sheet.version + sent.length;
    for (const [i, c] of [...writers, watcher].entries()) {
      await c.waitFor((frames) => (frames.some((f) => (f.type === 'ack' || f.type === 'operation') && f.data.version === last) ? true : undefined), `version ${last}`);
      replicas[i].absorb(c.frames);
    }
    const g10Acks = await writers[1].waitFor((frames) => {
      const acks = frames.filter((f): f is Extract<LiveServerFrame, { type: 'ack' }> => f.type === 'ack' && f.data.operation_id === 'g1-0');
      return acks.length === 2 ? acks : undefined;
    }, 'two acks of g1-0');
    assert.equal(g10Acks[0].data.version, g10Acks[1].data.version, 'the re-sent id is acked with its first version');

    // Every socket saw every version once, in order, without a gap (its own as acks).
    for (const c of [...writers, watcher]) {
      const versions = c.frames.filter((f) => f.type === 'operation' || (f.type === 'ack' && f !== g10Acks[1])).map((f) => (f as { data: { version: number } }).data.version);
      assert.deepEqual(versions, Array.from({ length: sent.length }, (_, k) => sheet.version + 1 + k), `${c.label}: versions in order`);
    }
    // The server's sheet: one version per applied op, the replicas equal to it.
    const server = SheetSchema.parse((await api.get(`/api/v1/sheets/${sheet.id}`)).json());
    assert.equal(server.version, last);
    for (const r of replicas) assert.deepEqual(r.grid, server.data);
    assert.equal(server.data[0][1], 'g1-0', 'the re-sent op was not applied again');
    // One op-log entry (a history entry) per version, each with its own cells.
    const history = (await api.get(`/api/v1/sheets/${sheet.id}/history?limit=500`)).json() as { versions: { version: number; delta_cells: number | null }[] };
    const logged = history.versions.filter((v) => v.version > sheet.version).sort((a, b) => a.version - b.version);
    assert.deepEqual(logged.map((v) => v.version), Array.from({ length: sent.length }, (_, k) => sheet.version + 1 + k));
    assert.equal(logged.reduce((n, v) => n + (v.delta_cells ?? 0), 0), sent.length + PER_WRITER / 10 * 3);
    // Committed in groups: ops of one transaction share its commit time (now() is the transaction's start).
    const times = new Set(watcher.frames.filter((f) => f.type === 'operation').map((f) => (f as Extract<LiveServerFrame, { type: 'operation' }>).data.operation.timestamp));
    assert.ok(times.size < sent.length, `${times.size} commit times for ${sent.length} operations: no group commit`);
    // And the frames of a group reached the watcher as array messages, fewer messages than frames.
    assert.ok(watcher.messages < watcher.frames.length, `${watcher.messages} messages for ${watcher.frames.length} frames`);
  });

  it('every version of a group-committed burst is rebuilt exactly, across snapshot versions inside the burst', async () => {
    const previous = process.env.VERSION_SNAPSHOT_EVERY;
    process.env.VERSION_SNAPSHOT_EVERY = '7';
    try {
      const res = await api.post('/api/v1/sheets', { name: 'Group commit snapshots', metadata: { rows: 2, columns: 2 } });
      const sheet = SheetSchema.parse(res.json());
      const writer = await join(sheet.id, sheet.version, 'writer');
      const watcher = await join(sheet.id, sheet.version, 'watcher');
      const N = 60;
      // Rows past the end and columns past the width too: the shapes and headers of each version count.
      for (let k = 0; k < N; k++) {
        writer.send({ type: 'operation', sheet_id: sheet.id, operation: { id: `s${k}`, type: 'cell_update', position: { row: k % 9, column: k % 5 }, value: `v${k}` } });
      }
      const last = sheet.version + N;
      await watcher.waitFor((frames) => (frames.some((f) => f.type === 'operation' && f.data.version === last) ? true : undefined), `version ${last}`);
      const grids = new Map<number, GridData>();
      const grid = structuredClone(sheet.data);
      for (const f of watcher.frames) {
        if (f.type !== 'operation' || f.data.operation.type !== 'cell_update') continue;
        const op = f.data.operation;
        applyChanges(grid, [{ row: op.position.row, col: op.position.column, value: op.value }]);
        grids.set(f.data.version, structuredClone(grid));
      }
      assert.equal(grids.size, N);
      for (const [v, expected] of grids) {
        const got = (await api.get(`/api/v1/sheets/${sheet.id}/versions/${v}`)).json() as { rows: GridData };
        // A rebuilt version pads its rows to the version's width: compare the cells, not the padding.
        assert.deepEqual(got.rows.map(trimRow), expected.map(trimRow), `version ${v}`);
      }
    } finally {
      if (previous === undefined) delete process.env.VERSION_SNAPSHOT_EVERY;
      else process.env.VERSION_SNAPSHOT_EVERY = previous;
    }
  });
  /** Sheets made for the cross-sheet tests, and what wrote each op-log row (its transaction: xmin). */
  const sheetsNamed = async (...names: string[]) =>
    Promise.all(names.map(async (name) => SheetSchema.parse((await api.post('/api/v1/sheets', { name, metadata: { rows: 4, columns: 4 } })).json())));
  const writers = async (ids: string[]) =>
    (await sql<{ sheet_id: string; version: number; tx: string }>`SELECT sheet_id, version, xmin::text AS tx FROM sheet_ops WHERE sheet_id = ANY(${ids}::uuid[]) AND kind = 'cells' ORDER BY sheet_id, version`.execute(t.app.db)).rows;
  const write = (value: string, row = 0, col = 0) => [{ userId: admin.userId, opId: `x-${value}`, changes: [{ row, col, value }] }];

  it('groups of different sheets ready together go in one transaction; a sheet\'s next group waits for the next one, in order', async (ctx) => {
    if (isPooledDatabase(t.app.db)) return ctx.skip('PGlite only: PostgreSQL commits sheets in parallel');
    const [a, b] = await sheetsNamed('Joint A', 'Joint B');
    const sheets = new SheetsService(t.app.db);
    // Ready in one turn, as the live hub's groups of many slowly edited sheets are.
    const [a1, b1, a2] = await Promise.all([
      sheets.patchCellsBatch(a.id, write('a1')),
      sheets.patchCellsBatch(b.id, write('b1')),
      sheets.patchCellsBatch(a.id, write('a2')),
    ]);
    assert.deepEqual([a1, b1, a2].map(([r]) => ('refused' in r ? 'refused' : r.version)), [a.version + 1, b.version + 1, a.version + 2]);
    const rows = await writers([a.id, b.id]);
    const tx = (id: string, version: number) => rows.find((r) => r.sheet_id === id && r.version === version)?.tx;
    assert.equal(tx(a.id, a.version + 1), tx(b.id, b.version + 1), 'A and B in one transaction');
    assert.notEqual(tx(a.id, a.version + 2), tx(a.id, a.version + 1), "A's second group in the next one");
    assert.equal((await sheets.readGrid(a.id)).data[0][0], 'a2');
    // B's op re-sent (a reconnect) in a shared transaction: found as applied, not written again.
    const [[again], [a3]] = await Promise.all([sheets.patchCellsBatch(b.id, write('b1')), sheets.patchCellsBatch(a.id, write('a3'))]);
    assert.deepEqual(again, { id: b.id, version: b.version + 1, updated_at: (b1[0] as { updated_at: string }).updated_at, duplicate: true, changes: write('b1')[0].changes });
    assert.ok(!('refused' in a3) && a3.version === a.version + 3);
    assert.equal((await writers([b.id])).length, 1);
  });

  it('a sheet refused in a shared transaction (the cell cap) leaves the others of it committed together', async (ctx) => {
    if (isPooledDatabase(t.app.db)) return ctx.skip('PGlite only: PostgreSQL commits sheets in parallel');
    const [a, b, c] = await sheetsNamed('Joint capped', 'Joint B2', 'Joint C2');
    const sheets = new SheetsService(t.app.db, 100);
    const results = await Promise.allSettled([
      sheets.patchCellsBatch(b.id, write('b')),
      sheets.patchCellsBatch(a.id, write('too far', 50, 50)),
      sheets.patchCellsBatch(c.id, write('c')),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.match(String((results[1] as PromiseRejectedResult).reason?.message), /cell|large|limit|size/i);
    const rows = await writers([a.id, b.id, c.id]);
    assert.deepEqual(rows.map((r) => r.sheet_id).sort(), [b.id, c.id].sort(), 'nothing of A written');
    assert.equal(rows[0].tx, rows[1].tx, 'B and C in one transaction');
    assert.equal((await sheets.readGrid(a.id)).summary.version, a.version);
  });
  it('the groups of a shared transaction are written by one statement; every version, size and header is as when written alone', async (ctx) => {
    if (isPooledDatabase(t.app.db)) return ctx.skip('PGlite only: PostgreSQL commits sheets in parallel');
    const previous = process.env.VERSION_SNAPSHOT_EVERY;
    process.env.VERSION_SNAPSHOT_EVERY = '9';
    try {
      const [a, b, c] = await sheetsNamed('Joint one statement A', 'Joint one statement B', 'Joint one statement C');
      const sheets = new SheetsService(t.app.db);
      const expected = new Map([a, b, c].map((s) => [s.id, new Map([[s.version, structuredClone(s.data)]])]));
      const op = (id: string, k: number, row: number, col: number) => ({ userId: admin.userId, opId: `one-${id}-${k}`, changes: [{ row, col, value: `${id.slice(0, 4)}-${k}` }] });
      // A: lone ops. B: groups widening the sheet before their last op, one crossing a snapshot version (9): written on their own,
      // as before, but for the ops after the snapshot. C: groups growing the sheet (rows and columns) at their last op, and an AI write.
      const groups = (round: number) => [
        { sheet: a, items: [op(a.id, round, round % 4, 0)] },
        { sheet: b, items: Array.from({ length: 5 }, (_, k) => op(b.id, round * 5 + k, k, k === 1 ? 4 + round : k)) },
        { sheet: c, items: [op(c.id, 2 * round, 0, 1), { ...op(c.id, 2 * round + 1, 5 + round, 5 + round), ai: round === 1 }] },
      ];
      for (let round = 0; round < 3; round++) {
        const outcomes = await Promise.all(groups(round).map((g) => sheets.patchCellsBatch(g.sheet.id, g.items)));
        for (const [i, g] of groups(round).entries()) {
          const versions = expected.get(g.sheet.id)!;
          for (const [k, item] of g.items.entries()) {
            const r = outcomes[i][k];
            assert.ok(!('refused' in r), JSON.stringify(r));
            const grid = structuredClone([...versions.values()].at(-1)!);
            applyChanges(grid, item.changes);
            versions.set(r.version, grid);
          }
        }
      }
      // One transaction per round, and in it one statement (cmin) for the op rows and chunks of A, C and (its last group) B.
      const ops = (await sql<{ sheet_id: string; version: number; tx: string; cmd: string }>`SELECT sheet_id, version, xmin::text AS tx, cmin::text AS cmd
        FROM sheet_ops WHERE sheet_id = ANY(${[a.id, c.id]}::uuid[]) AND kind = 'cells' ORDER BY version`.execute(t.app.db)).rows;
      const statements = new Set(ops.map((o) => `${o.tx}/${o.cmd}`));
      assert.equal(statements.size, 3, `op rows of A and C by ${statements.size} statements in 3 rounds`);
      const chunks = (await sql<{ tx: string; cmd: string }>`SELECT xmin::text AS tx, cmin::text AS cmd FROM sheet_chunks WHERE sheet_id = ANY(${[a.id, c.id]}::uuid[])`.execute(t.app.db)).rows;
      assert.deepEqual(new Set(chunks.map((r) => `${r.tx}/${r.cmd}`)), new Set([`${ops.at(-1)!.tx}/${ops.at(-1)!.cmd}`]), 'the last round wrote their chunks in that statement');
      // Every version rebuilds to its grid; the sheets' sizes and held cells are those of their chunks; the AI write is marked.
      for (const [id, versions] of expected) {
        for (const [v, grid] of versions) {
          const got = (await api.get(`/api/v1/sheets/${id}/versions/${v}`)).json() as { rows: GridData; headers?: string[] };
          assert.deepEqual(got.rows.map(trimRow), grid.map(trimRow), `sheet ${id} version ${v}`);
        }
        const server = SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
        assert.deepEqual(server.data.map(trimRow), [...versions.values()].at(-1)!.map(trimRow));
        assert.equal(server.version, Math.max(...versions.keys()));
      }
      const sizes = (await sql<{ id: string; ok: boolean; ai: string | null }>`SELECT s.id, s.byte_size = (SELECT sum(octet_length(c.rows::text)) FROM sheet_chunks c WHERE c.sheet_id = s.id)
          AND s.held_cells = (SELECT sum(sheet_rows_held(c.rows)) FROM sheet_chunks c WHERE c.sheet_id = s.id) AS ok, s.extra->>'lastAIUpdate' AS ai
        FROM sheets s WHERE s.id = ANY(${[a.id, b.id, c.id]}::uuid[])`.execute(t.app.db)).rows;
      assert.deepEqual(sizes.map((r) => r.ok), [true, true, true], 'sizes and held cells as stored');
      assert.ok(sizes.find((r) => r.id === c.id)?.ai, 'the AI write marked its sheet');
      // Each version's shape and the headers as recorded alone: one shape per version, headers only where they changed.
      const shapes = (await sql<{ sheet_id: string; version: number; row_count: number; col_count: number }>`SELECT sheet_id, version, row_count, col_count
        FROM sheet_version_shapes WHERE sheet_id = ${c.id}::uuid ORDER BY version`.execute(t.app.db)).rows;
      assert.deepEqual(shapes.map((s) => [s.version, s.row_count, s.col_count]), [...expected.get(c.id)!.entries()].map(([v, g]) => [v, g.length, Math.max(4, ...g.map((r) => r.length))]));
      const headers = (await sql<{ version: number; headers: string[] }>`SELECT version, headers FROM sheet_version_headers WHERE sheet_id = ${c.id}::uuid ORDER BY version`.execute(t.app.db)).rows;
      assert.deepEqual(headers.map((h) => [h.version, h.headers.length]), [[c.version, 4], [c.version + 2, 6], [c.version + 4, 7], [c.version + 6, 8]]);
    } finally {
      if (previous === undefined) delete process.env.VERSION_SNAPSHOT_EVERY;
      else process.env.VERSION_SNAPSHOT_EVERY = previous;
    }
  });

  it("a shared transaction's last statement failing refuses the part it names alone, and runs the parts writing their own when it names none", async () => {
    const told: boolean[] = [];
    let fail: Error | undefined = new JointPartError('b', new Error('b is gone'));
    const joint = new JointCommits(
      t.app.db,
      async (_trx, _sheets, deferred) => void told.push(deferred),
      async () => {
        const err = fail;
        fail = fail instanceof JointPartError ? new Error('whose?') : undefined;
        if (err) throw err;
      },
    );
    const parts = await Promise.allSettled(['a', 'b', 'c'].map((id) => joint.run(id, [], async () => id)));
    assert.deepEqual(parts.map((p) => (p.status === 'fulfilled' ? p.value : String((p.reason as Error).message))), ['a', 'b is gone', 'c']);
    // First all three (b named), then a and c (not told whose), then a and c each writing its own.
    assert.deepEqual(told, [true, true, false]);
  });
});
