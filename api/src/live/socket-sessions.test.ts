import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { afterEach, describe, it } from 'node:test';
import { LIVE_CLOSE, LIVE_TEXTS } from '@tessera/contracts';
import type { TokenEpochs } from '../auth/token-epochs.js';
import { MemoryLiveBus } from './memory-bus.js';
import { REVOCATION_CHANNEL, SocketSessions } from './socket-sessions.js';

/** A socket that records its close; 'close' is emitted as ws does once the close is done. */
class FakeSocket extends EventEmitter {
  readyState = 1;
  closedWith: { code: number; reason: string } | undefined;
  close(code: number, reason: string) {
    this.readyState = 2;
    this.closedWith = { code, reason };
    queueMicrotask(() => {
      this.readyState = 3;
      this.emit('close');
    });
  }
  terminate() {
    this.readyState = 3;
    this.emit('close');
  }
}

/** The epochs of the database, as TokenEpochs answers them (its cache is beside the point here). */
function epochsOf(table: Map<string, number>) {
  const listeners = new Set<(userId: string) => void>();
  const forgotten: string[] = [];
  const epochs = {
    current: async (userId: string) => table.get(userId) ?? null,
    forget: (userId: string) => void forgotten.push(userId),
    changed: (userId: string) => {
      for (const l of listeners) l(userId);
    },
    onChanged: (l: (userId: string) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return { epochs: epochs as unknown as TokenEpochs, changed: epochs.changed, forgotten };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const user = (id: string) => ({ id, username: id, role: 'user' as const });
const later = () => Date.now() + 60_000;

describe('SocketSessions', () => {
  const started: SocketSessions[] = [];
  afterEach(async () => {
    for (const s of started.splice(0)) await s.stop();
  });
  async function start(table: Map<string, number>, bus = new MemoryLiveBus()) {
    const { epochs, changed, forgotten } = epochsOf(table);
    const sessions = new SocketSessions({ bus, epochs, log: { error: () => {} }, recheckMs: 60_000 });
    await sessions.start();
    started.push(sessions);
    return { sessions, changed, forgotten, bus };
  }

  it('a change of epoch here closes that user sockets of the old epoch with 4401, not those of the new one nor other users', async () => {
    const table = new Map([
      ['u1', 0],
      ['u2', 0],
    ]);
    const { sessions, changed } = await start(table);
    const old = new FakeSocket();
    const other = new FakeSocket();
    const renewed = new FakeSocket();
    sessions.track(old, { user: user('u1'), epoch: 0, expiresAt: later() });
    sessions.track(other, { user: user('u2'), epoch: 0, expiresAt: later() });
    table.set('u1', 1);
    sessions.track(renewed, { user: user('u1'), epoch: 1, expiresAt: later() });
    changed('u1');
    await settle();
    assert.deepEqual(old.closedWith, { code: LIVE_CLOSE.sessionEnded, reason: LIVE_TEXTS.sessionEnded });
    assert.equal(renewed.closedWith, undefined);
    assert.equal(other.closedWith, undefined);
    assert.equal(sessions.count('u1'), 1);
  });

  it('a deleted user (no epoch) loses every socket; a message from another process does the same and drops the cached epoch', async () => {
    const table = new Map([['u1', 3]]);
    const { sessions, forgotten, bus } = await start(table);
    const a = new FakeSocket();
    const b = new FakeSocket();
    sessions.track(a, { user: user('u1'), epoch: 3, expiresAt: later() });
    sessions.track(b, { user: user('u1'), epoch: 3, expiresAt: later() });
    table.delete('u1');
    await bus.publish(REVOCATION_CHANNEL, { user_id: 'u1' });
    await settle();
    assert.equal(a.closedWith?.code, LIVE_CLOSE.sessionEnded);
    assert.equal(b.closedWith?.code, LIVE_CLOSE.sessionEnded);
    assert.ok(forgotten.includes('u1'));
    assert.equal(sessions.count('u1'), 0);
  });

  it('closes a socket at its token exp with 4440', async () => {
    const { sessions } = await start(new Map([['u1', 0]]));
    const s = new FakeSocket();
    sessions.track(s, { user: user('u1'), epoch: 0, expiresAt: Date.now() + 30 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.deepEqual(s.closedWith, { code: LIVE_CLOSE.tokenExpired, reason: LIVE_TEXTS.tokenExpired });
  });

  it('the recheck closes what a lost bus message left open; a socket that closed is forgotten', async () => {
    const table = new Map([['u1', 0]]);
    const { sessions } = await start(table);
    const stale = new FakeSocket();
    const gone = new FakeSocket();
    sessions.track(stale, { user: user('u1'), epoch: 0, expiresAt: later() });
    sessions.track(gone, { user: user('u1'), epoch: 0, expiresAt: later() });
    gone.terminate();
    assert.equal(sessions.count('u1'), 1);
    table.set('u1', 1);
    await sessions.recheck();
    assert.equal(stale.closedWith?.code, LIVE_CLOSE.sessionEnded);
    assert.equal(gone.closedWith, undefined);
  });

  it('ignores a malformed bus message', async () => {
    const table = new Map([['u1', 0]]);
    const { sessions, bus } = await start(table);
    const s = new FakeSocket();
    sessions.track(s, { user: user('u1'), epoch: 0, expiresAt: later() });
    await bus.publish(REVOCATION_CHANNEL, { user: 'u1' });
    await settle();
    assert.equal(s.closedWith, undefined);
  });
});
