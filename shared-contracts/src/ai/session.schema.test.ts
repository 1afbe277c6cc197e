import { SESSION_TEXTS, SessionActionBodySchema } from './session.schema.js';

test('a session is created by a name, trimmed and not empty, or switched to by id; the spec’s user_id is accepted', () => {
  expect(SessionActionBodySchema.parse({ action: 'create', session_name: '  Budget  ', user_id: 'user_1_x' })).toEqual({
    action: 'create',
    session_name: 'Budget',
    user_id: 'user_1_x',
  });
  const blank = SessionActionBodySchema.safeParse({ action: 'create', session_name: '   ' });
  expect(blank.success).toBe(false);
  expect(blank.error?.issues[0].message).toBe(SESSION_TEXTS.nameEmpty);
  expect(SessionActionBodySchema.parse({ action: 'switch', session_id: 's-1' })).toEqual({ action: 'switch', session_id: 's-1' });
  expect(SessionActionBodySchema.safeParse({ action: 'switch' }).success).toBe(false);
  expect(SessionActionBodySchema.safeParse({ action: 'rename', session_name: 'x' }).success).toBe(false);
});
