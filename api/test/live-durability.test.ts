import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { SheetSchema } from '@tessera/contracts';
import { type ApiProcess, createDatabase, httpApi, startApiProcess, usersOn } from './live-api-process.js';
import { LiveClient } from './live-client.js';
import { pgliteTemplate } from './support/pglite-template.js';

/**
 * Durability: an operation is acknowledged only after its transaction committed, so a crash
 * (`kill -9` of the api in the middle of a burst) loses no acknowledged operation. The api runs
 * as a child process on the database of this pass (PGlite in its DATA_DIR, or PostgreSQL with
 * TEST_PG_URL) and is restarted on it.
 */
const CLIENTS = 4;
/** The burst is cut once this many acks came back (the rest are in flight or not sent yet). */
const KILL_AFTER_ACKS = 150;
// Enough that a burst outlasts several group commits (up to 500 ops each): the kill lands inside it.
const OPS_PER_CLIENT = 1500;

describe('durability of acknowledged live operations', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const fn of cleanup.reverse()) await fn().catch(() => {});
  });

  it('kill -9 in the middle of a burst, restart on the same database: every acknowledged op is in the sheet', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-live-durability-'));
    cleanup.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const db = process.env.TEST_PG_URL ? await createDatabase(process.env.TEST_PG_URL) : undefined;
    if (db) cleanup.push(() => db.drop());
    const env = { DATA_DIR: dataDir, DATABASE_URL: db?.url, REDIS_URL: undefined };
    // PGlite: start from the migrated template (a fresh initdb takes several seconds more).
    if (!db) await fs.cp(await pgliteTemplate(), path.join(dataDir, 'api'), { recursive: true });
    let api: ApiProcess = await startApiProcess(env);
    cleanup.push(() => api.kill('SIGKILL'));

    const { admin } = await usersOn(api.http, []);
    const created = await httpApi(api.http, admin).request('POST', '/api/v1/sheets', { name: 'Durability' });
    assert.equal(created.status, 201, created.text);
    const sheet = SheetSchema.parse(created.json());
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => LiveClient.join(api.ws, sheet.id, admin, { label: `writer ${i}` })));
    cleanup.push(() => Promise.all(clients.map((c) => c.close())));

    // Each op writes a cell of its own (row k, column i), so a later op never hides an earlier one.
    type Frame = { type: string; data: { operation_id?: string } };
    const acked = new Map<string, { row: number; col: number; value: string }>();
    const sentOps = new Map<string, { row: number; col: number; value: string }>();
    for (const c of clients) {
      c.socket.on('message', (data: Buffer) => {
        // One message may hold several frames (an array).
        const message = JSON.parse(data.toString('utf8')) as Frame | Frame[];
        for (const f of Array.isArray(message) ? message : [message]) {
          if (f.type === 'ack' && f.data.operation_id) acked.set(f.data.operation_id, sentOps.get(f.data.operation_id)!);
        }
      });
    }
    const killed = (async () => {
      await clients[0].waitFor(() => (acked.size >= KILL_AFTER_ACKS ? true : undefined), `${KILL_AFTER_ACKS} acks`);
      return api.kill('SIGKILL');
    })();
    // Send in rounds, yielding between them, until the api is gone.
    for (let k = 0; k < OPS_PER_CLIENT && api.child.exitCode === null && api.child.signalCode === null; k++) {
      for (const [i, c] of clients.entries()) {
        const id = `w${i}-${k}`;
        const cell = { row: k, col: i, value: `${i}:${k}` };
        sentOps.set(id, cell);
        if (c.socket.readyState === 1) c.send({ type: 'operation', sheet_id: sheet.id, operation: { id, type: 'cell_update', position: { row: k, column: i }, value: cell.value } });
      }
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(await killed, 'SIGKILL');
    const ackedAtKill = new Map(acked);
    assert.ok(ackedAtKill.size >= KILL_AFTER_ACKS);
    assert.ok(ackedAtKill.size < sentOps.size, 'the kill came in the middle of the burst (some ops were sent but not acknowledged)');

    api = await startApiProcess(env);
    const after = await httpApi(api.http, admin).sheet(sheet.id);
    const missing = [...ackedAtKill].filter(([, c]) => after.data[c.row]?.[c.col] !== c.value).map(([id]) => id);
    assert.deepEqual(missing, [], `acknowledged ops missing after the restart (of ${ackedAtKill.size})`);
    assert.ok(after.version >= sheet.version + ackedAtKill.size);
  });
});
