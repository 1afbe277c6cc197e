import { decodeTokenClaims, isTokenLive, userFromToken } from './token.js';

const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (claims: object) => `${enc({ alg: 'EdDSA' })}.${enc(claims)}.sig`;

describe('token claims', () => {
  const exp = Math.floor(Date.now() / 1000) + 60;

  it('yields the user when sub, username and role are present', () => {
    expect(userFromToken(jwt({ sub: 'id1', username: 'ann', role: 'ADMIN', exp }))).toEqual({
      id: 'id1',
      username: 'ann',
      role: 'admin',
    });
  });

  it.each([
    ['sub', { username: 'ann', role: 'user', exp }],
    ['username', { sub: 'id1', role: 'user', exp }],
    ['role', { sub: 'id1', username: 'ann', exp }],
  ])('yields no user without %s', (_missing, claims) => {
    expect(userFromToken(jwt(claims))).toBeNull();
  });

  it('yields no user for garbage', () => {
    expect(decodeTokenClaims('garbage')).toBeNull();
    expect(decodeTokenClaims('x.%%%.y')).toBeNull();
    expect(decodeTokenClaims('')).toBeNull();
  });

  it('knows an expired token', () => {
    expect(isTokenLive(jwt({ sub: 'a', username: 'a', role: 'user', exp: exp - 120 }))).toBe(false);
    expect(isTokenLive(jwt({ sub: 'a', username: 'a', role: 'user', exp }))).toBe(true);
  });
});
