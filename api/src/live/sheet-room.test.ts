import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveServerFrame } from '@tessera/contracts';
import { SheetRoom, type SheetRoomDeps } from './sheet-room.js';

const SHEET = 's1';
const METADATA = { headers: ['A'], description: '', tags: [], rows: 1, columns: 1, groupId: null, position: 0, category: 'General' as const };
const op = (version: number): LiveServerFrame => ({
  type: 'operation',
  data: { sheet_id: SHEET, version, operation: { id: `op-${version}`, type: 'cell_update', position: { row: 0, column: 0 }, value: version, user_id: 'u', timestamp: 't' } },
});
const sync = (version: number): Extract<LiveServerFrame, { type: 'sync' }> => ({
  type: 'sync',
  data: { sheet_id: SHEET, data: [[version]], version, name: 'n', metadata: METADATA, timestamp: 't' },
});

/** A room whose sockets are names; what each got is read back as "op 3", "ack 3", "sync 5". */
function setup(opts: { log?: Map<number, LiveServerFrame>; current?: () => number } = {}) {
  const got = new Map<string, string[]>();
  let reads = 0;
  const deps: SheetRoomDeps<string> = {
    sendText: (conn, text) => {
      const f = JSON.parse(text) as LiveServerFrame;
      const v = 'version' in f.data ? f.data.version : '?';
      got.set(conn, [...(got.get(conn) ?? []), `${f.type} ${v}`]);
    },
    readSync: async (_withCells, use) => use(sync(opts.current?.() ?? 0)),
    wantsCells: () => true,
    readOps: async (after, upTo) => {
      reads += 1;
      const out = [];
      for (let v = after + 1; v <= upTo; v++) {
        const f = opts.log?.get(v);
        if (!f) return undefined;
        out.push({ version: v, frame: f });
      }
      return out;
    },
    onError: (err) => assert.fail(String(err)),
  };
  const room = new SheetRoom(deps);
  /** Waits (bounded) until `conn` got `n` frames. */
  const until = async (conn: string, n: number) => {
    const guard = Date.now() + 5_000;
    while ((got.get(conn)?.length ?? 0) < n) {
      if (Date.now() > guard) throw new Error(`${conn} got ${JSON.stringify(got.get(conn))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return got.get(conn);
  };
  return { room, got, until, reads: () => reads };
}

describe('SheetRoom: every socket gets the versions in order', () => {
  it('holds a version that arrives early until the one before it arrives', async () => {
    const { room, until } = setup();
    room.start(1);
    room.add('a');
    room.caughtUp('a');
    room.push({ kind: 'operation', version: 4, frame: op(4) });
    room.push({ kind: 'operation', version: 3, frame: op(3) });
    room.push({ kind: 'operation', version: 2, frame: op(2) });
    room.push({ kind: 'operation', version: 2, frame: op(2) }); // a duplicate is dropped
    assert.deepEqual(await until('a', 3), ['operation 2', 'operation 3', 'operation 4']);
  });

  it('reads a version that never arrives from the op log', async () => {
    const log = new Map([[2, op(2)]]);
    const { room, until, reads } = setup({ log });
    room.start(1);
    room.add('a');
    room.caughtUp('a');
    room.push({ kind: 'operation', version: 3, frame: op(3) });
    assert.deepEqual(await until('a', 2), ['operation 2', 'operation 3']);
    assert.equal(reads(), 1);
  });

  it('sends a sync when the missing versions cannot be replayed', async () => {
    const { room, until } = setup({ current: () => 3 });
    room.start(1);
    room.add('a');
    room.caughtUp('a');
    room.push({ kind: 'operation', version: 3, frame: op(3) });
    room.push({ kind: 'operation', version: 4, frame: op(4) });
    assert.deepEqual(await until('a', 2), ['sync 3', 'operation 4']);
  });

  it('a sync point waits for its turn, then jumps: what it covers is dropped', async () => {
    let current = 3;
    const { room, until } = setup({ current: () => current });
    room.start(1);
    room.add('a');
    room.caughtUp('a');
    room.push({ kind: 'sync', version: 3 });
    room.push({ kind: 'operation', version: 2, frame: op(2) });
    assert.deepEqual(await until('a', 2), ['operation 2', 'sync 3']);
    current = 3;
    room.push({ kind: 'sync' }); // reload_request: everyone, even at the same version
    room.push({ kind: 'operation', version: 3, frame: op(3) }); // already covered
    room.push({ kind: 'operation', version: 4, frame: op(4) });
    assert.deepEqual(await until('a', 4), ['operation 2', 'sync 3', 'sync 3', 'operation 4']);
  });

  it('gives the sender its ack in place of the operation, in order', async () => {
    const { room, until, got } = setup();
    room.start(1);
    for (const c of ['sender', 'other']) {
      room.add(c);
      room.caughtUp(c);
    }
    room.setAck(3, 'sender', { type: 'ack', data: { sheet_id: SHEET, operation_id: 'mine', version: 3, timestamp: 't' } });
    room.push({ kind: 'operation', version: 3, frame: op(3) });
    room.push({ kind: 'operation', version: 2, frame: op(2) });
    assert.deepEqual(await until('sender', 2), ['operation 2', 'ack 3']);
    assert.deepEqual(await until('other', 2), ['operation 2', 'operation 3']);
    assert.equal(got.size, 2);
  });

  it('holds what arrives while a socket catches up, and sends only what is newer than where it caught up', async () => {
    const { room, until, got } = setup();
    room.start(1);
    room.add('joiner');
    room.push({ kind: 'operation', version: 2, frame: op(2) });
    room.push({ kind: 'operation', version: 3, frame: op(3) });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(got.get('joiner'), undefined, 'nothing while catching up');
    room.caughtUp('joiner', 2); // it was replayed up to version 2
    assert.deepEqual(await until('joiner', 1), ['operation 3']);
  });
});
