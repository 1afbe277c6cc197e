import type { CellChange } from '@tessera/contracts';
import { CellSync } from './cell-sync.js';

function setup(reply: (kind: 'patch' | 'put', base: number) => { ok: boolean; status?: number } = () => ({ ok: true })) {
  const sent: { kind: 'patch' | 'put'; base: number; changes?: CellChange[] }[] = [];
  const events: string[] = [];
  let version = 5;
  const answer = (kind: 'patch' | 'put', base: number) => {
    const r = reply(kind, base);
    if (!r.ok) return { success: false as const, error: `failed ${r.status}`, status: r.status };
    version += 1;
    return { success: true as const, data: { id: 's', version, updated_at: `t${version}` } };
  };
  const sync = new CellSync({
    version,
    debounceMs: 5,
    patch: async (base, changes) => {
      sent.push({ kind: 'patch', base, changes });
      return answer('patch', base);
    },
    saveAll: async (base) => {
      sent.push({ kind: 'put', base });
      return answer('put', base);
    },
    onSaved: (v) => events.push(`saved ${v}`),
    onFailed: (f) => events.push(`failed ${f.status}`),
    onPending: (p) => events.push(p ? 'pending' : 'idle'),
  });
  return { sync, sent, events };
}

const cell = (row: number, col: number, value: CellChange['value']) => ({ row, col, value });

test('edits within the pause go as one PATCH based on the loaded version; the next is based on the reply', async () => {
  const { sync, sent, events } = setup();
  sync.edit([cell(0, 0, 'a')]);
  sync.edit([cell(0, 1, 'b'), cell(0, 0, 'A')]);
  await sync.flush();
  expect(sent).toEqual([{ kind: 'patch', base: 5, changes: [cell(0, 0, 'A'), cell(0, 1, 'b')] }]);
  sync.edit([cell(1, 1, 2)]);
  await sync.flush();
  expect(sent[1]).toMatchObject({ kind: 'patch', base: 6 });
  expect(sync.currentVersion).toBe(7);
  expect(events).toEqual(['pending', 'pending', 'saved 6', 'idle', 'pending', 'saved 7', 'idle']);
});

test('the debounce sends by itself after the pause', async () => {
  const { sync, sent } = setup();
  sync.edit([cell(0, 0, 1)]);
  await new Promise((r) => setTimeout(r, 30));
  expect(sent).toHaveLength(1);
});

test('a structural change, or the Save command, sends the whole grid instead', async () => {
  const { sync, sent } = setup();
  sync.edit([cell(0, 0, 1)]);
  sync.structureChanged();
  await sync.flush();
  expect(sent).toEqual([{ kind: 'put', base: 5 }]);
  await sync.saveNow();
  expect(sent[1]).toEqual({ kind: 'put', base: 6 });
});

test('a failed PATCH keeps its cells for the next attempt; a 409 drops them (the sheet is reloaded)', async () => {
  let fail: number | null = 500;
  const { sync, sent, events } = setup(() => (fail ? { ok: false, status: fail } : { ok: true }));
  sync.edit([cell(0, 0, 1)]);
  await sync.flush();
  expect(events).toContain('failed 500');
  fail = null;
  sync.edit([cell(1, 0, 2)]);
  await sync.flush();
  expect(sent[1].changes).toEqual([cell(0, 0, 1), cell(1, 0, 2)]);

  fail = 409;
  sync.edit([cell(2, 0, 3)]);
  await sync.flush();
  expect(sync.hasPending).toBe(false);
});

test('after stop nothing is sent', async () => {
  const { sync, sent } = setup();
  sync.edit([cell(0, 0, 1)]);
  sync.stop();
  await sync.flush();
  expect(sent).toEqual([]);
});
