import { userDisplayName, userSubtitle } from './user-label.js';

test('display name: nickname, else username, else User', () => {
  expect(userDisplayName({ nickname: 'Al', username: 'alice' })).toBe('Al');
  expect(userDisplayName({ nickname: '', username: 'alice' })).toBe('alice');
  expect(userDisplayName({ nickname: null, username: null })).toBe('User');
  expect(userDisplayName({})).toBe('User');
});

test('subtitle: email, else role, else Member', () => {
  expect(userSubtitle({ email: 'a@example.com', role: 'admin' })).toBe('a@example.com');
  expect(userSubtitle({ email: null, role: 'admin' })).toBe('admin');
  expect(userSubtitle({ email: '  ', role: '' })).toBe('Member');
  expect(userSubtitle({})).toBe('Member');
});
