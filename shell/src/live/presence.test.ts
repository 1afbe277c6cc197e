import { presenceColor, type LiveServerFrame, type SheetPresenceUser } from '@tessera/contracts';
import { nextOnline, nextSheetPresence } from './presence.js';

const at = () => '2026-01-01T00:00:00.000Z';
const joined = (user_id: string, display_name: string, sheet_id = 's1'): LiveServerFrame => ({ type: 'user_joined', data: { user_id, sheet_id, display_name } });
const left = (user_id: string, display_name: string, sheet_id = 's1'): LiveServerFrame => ({ type: 'user_left', data: { user_id, sheet_id, display_name } });

function run(frames: LiveServerFrame[], self = 'me') {
  let onSheet: SheetPresenceUser[] = [];
  const notices: string[] = [];
  for (const frame of frames) {
    const next = nextSheetPresence(onSheet, frame, 's1', self, at);
    onSheet = next.onSheet;
    if (next.notice) notices.push(`${next.notice.name} ${next.notice.text}`);
  }
  return { onSheet, notices };
}

test('the list on join replaces the presence, once per user, with their colour and selected cell', () => {
  const { onSheet, notices } = run([
    joined('x', 'Stale'),
    {
      type: 'presence',
      data: {
        sheet_id: 's1',
        users: [
          { userId: 'me', joinedAt: at(), display_name: 'Me' },
          { userId: 'b', joinedAt: at(), display_name: 'Bob', selection: { row: 2, column: 3 } },
          { userId: 'b', joinedAt: at(), display_name: 'Bob' },
        ],
      },
    },
  ]);
  expect(onSheet).toEqual([
    { userId: 'me', joinedAt: at(), displayName: 'Me', selection: null, color: presenceColor('me') },
    { userId: 'b', joinedAt: at(), displayName: 'Bob', selection: { row: 2, col: 3 }, color: presenceColor('b') },
  ]);
  expect(notices).toEqual(['Stale joined the sheet']);
});

test("one's own joins and leaves are never announced; a second tab or another sheet changes nothing", () => {
  const { onSheet, notices } = run([joined('me', 'Me'), joined('b', 'Bob'), joined('b', 'Bob'), joined('c', 'Cy', 's2'), left('c', 'Cy'), left('me', 'Me')]);
  expect(onSheet.map((u) => u.userId)).toEqual(['b']);
  expect(notices).toEqual(['Bob joined the sheet']);
});

test("a user without a name is 'User' and the first 8 characters of the id", () => {
  expect(run([joined('0123456789abcdef', ''), left('0123456789abcdef', ' ')]).notices).toEqual(['User 01234567 joined the sheet', 'User 01234567 left the sheet']);
});

test('a selection moves the user’s selected cell (and lists someone not seen yet)', () => {
  const { onSheet } = run([
    joined('b', 'Bob'),
    { type: 'selection', data: { sheet_id: 's1', user_id: 'b', display_name: 'Bob', selection: { row: 1, column: 0 } } },
    { type: 'selection', data: { sheet_id: 's1', user_id: 'c', display_name: 'Cy', selection: null } },
    { type: 'selection', data: { sheet_id: 's2', user_id: 'b', display_name: 'Bob', selection: { row: 9, column: 9 } } },
  ]);
  expect(onSheet.map((u) => [u.userId, u.selection])).toEqual([
    ['b', { row: 1, col: 0 }],
    ['c', null],
  ]);
});

test('who is online anywhere: the list on connect, then users coming and going, once each', () => {
  let online: string[] = [];
  online = nextOnline(online, { type: 'online', data: { users: [{ user_id: 'a', display_name: 'A' }, { user_id: 'a', display_name: 'A' }] } });
  online = nextOnline(online, { type: 'user_online', data: { user_id: 'b', display_name: 'B' } });
  online = nextOnline(online, { type: 'user_online', data: { user_id: 'b', display_name: 'B' } });
  online = nextOnline(online, { type: 'user_offline', data: { user_id: 'a' } });
  expect(online).toEqual(['b']);
});
