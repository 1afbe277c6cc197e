// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is live selections.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SheetSchema } from '@tessera/contracts';
import { LiveClient } from './live-client.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';

/** Selected cells on the sheet socket: shown to the others in the user's colour (the client picks it from the user id). */
describe('live selections', () => {
  let { t, base, admin, bob, api } = {} as LiveStack;
  const open: LiveClient[] = [];

  before(async () => ({ t, base, admin, bob, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  const join = async (sheetId: string, token: string, label: string) => {
    const c = await LiveClient.join(base, sheetId, token, { label });
    open.push(c);
    return c;
  };
  const select = (sheetId: string, selection: { row: number; column: number } | null) => ({ type: 'selection', sheet_id: sheetId, selection });

  it("tells the others of a user's selected cell with their name, lists it in presence, and forgets it when the user leaves", async () => {
    const s = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Selections' })).json());
    const a = await join(s.id, admin.accessToken, 'admin');
    const b = await join(s.id, bob.accessToken, 'bob');
    await a.next('user_joined');

    b.send(select(s.id, { row: 2, column: 3 }));
    const seen = await a.next('selection');
    assert.deepEqual(seen.data, { sheet_id: s.id, user_id: bob.userId, display_name: bob.username, selection: { row: 2, column: 3 } });

    // A newcomer gets the selections in the presence list.
    const c = await join(s.id, admin.accessToken, 'admin, second tab');
    const presence = c.frames[0];
    assert.equal(presence.type, 'presence');
    const entries = presence.type === 'presence' ? presence.data.users : [];
    assert.deepEqual(entries.find((u) => u.userId === bob.userId)?.selection, { row: 2, column: 3 });
    assert.equal(entries.find((u) => u.userId === admin.userId)?.selection, undefined, 'admin has selected nothing');

    // Cleared (null) reaches the others too; the selecting socket never gets its own selection back.
    b.send(select(s.id, null));
    assert.equal((await a.next('selection')).data.selection, null);
    assert.equal((await c.next('selection')).data.selection, null);
    b.send(select(s.id, { row: 0, column: 0 }));
    await a.next('selection');
    assert.equal(b.frames.some((f) => f.type === 'selection'), false);

    // Bob leaves: his selection goes with him.
    await b.close();
    await a.next('user_left');
    const again = await join(s.id, bob.accessToken, 'bob again');
    const list = again.frames[0];
    assert.equal(list.type === 'presence' && list.data.users.find((u) => u.userId === bob.userId)?.selection, undefined);
  });

  it('refuses malformed selections with an error frame and keeps the socket', async () => {
    const s = SheetSchema.parse((await api.post('/api/v1/sheets', { name: 'Bad selections' })).json());
    const a = await join(s.id, admin.accessToken, 'sender');
    const b = await join(s.id, bob.accessToken, 'bystander');
    const bad: [unknown, RegExp][] = [
      [{ type: 'selection', sheet_id: s.id, selection: { row: -1, column: 0 } }, /selection\.row/],
      [{ type: 'selection', sheet_id: s.id, selection: { row: 'a', column: 0 } }, /selection\.row/],
      [{ type: 'selection', sheet_id: s.id, selection: { row: 0, column: 0, extra: 1 } }, /selection/],
      [{ type: 'selection', sheet_id: s.id }, /selection/],
      [{ type: 'selection', sheet_id: '00000000-0000-4000-8000-000000000000', selection: null }, /sheet_id/],
    ];
    for (const [frame, message] of bad) {
      a.send(frame);
      assert.match((await a.next('error')).data.message, message, JSON.stringify(frame));
    }
    a.send(select(s.id, { row: 1, column: 1 }));
    assert.deepEqual((await b.next('selection')).data.selection, { row: 1, column: 1 });
    assert.equal(b.frames.some((f) => f.type === 'error'), false);
  });
});
