import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OidcConfig } from '../config.js';
import { profileFromClaims, roleFromClaims } from './oidc-profile.js';

const config: OidcConfig = {
  issuer: 'https://id.example.com',
  clientId: 'tessera',
  name: 'SSO',
  scopes: ['openid'],
  roleClaim: 'realm_access.roles',
  roleMap: [
    { value: 'tessera-admins', role: 'admin' },
    { value: 'staff', role: 'user' },
  ],
};

describe('profileFromClaims', () => {
  it('takes preferred_username, then the email, then the subject; cleans characters a username may not have', () => {
    assert.equal(profileFromClaims('s1', { preferred_username: 'Zoë Smith', email: 'z@x.io' }).username, 'Zoë-Smith');
    assert.equal(profileFromClaims('s1', { preferred_username: '!', email: 'z@x.io' }).username, 'z@x.io');
    assert.equal(profileFromClaims('7f3a', {}).username, 'sso-7f3a');
    assert.equal(profileFromClaims('s', { preferred_username: 'a'.repeat(200) }).username.length, 57, 'room left for a -N suffix');
  });

  it('takes the nickname from name (or given + family name) and only a valid email', () => {
    assert.deepEqual(profileFromClaims('s', { preferred_username: 'ann', name: 'Ann Lee', email: 'ann@x.io' }), { username: 'ann', nickname: 'Ann Lee', email: 'ann@x.io' });
    assert.equal(profileFromClaims('s', { given_name: 'Ann', family_name: 'Lee' }).nickname, 'Ann Lee');
    assert.equal(profileFromClaims('s', { email: 'not an email' }).email, null);
    assert.equal(profileFromClaims('s', { name: 'n'.repeat(500) }).nickname?.length, 100);
  });
});

describe('roleFromClaims', () => {
  it('maps a nested list or a single string; admin wins; nothing matching is user; no role claim configured is undefined', () => {
    assert.equal(roleFromClaims(config, { realm_access: { roles: ['staff', 'tessera-admins'] } }), 'admin');
    assert.equal(roleFromClaims(config, { realm_access: { roles: 'staff' } }), 'user');
    assert.equal(roleFromClaims(config, { realm_access: { roles: ['other'] } }), 'user');
    assert.equal(roleFromClaims(config, {}), 'user');
    assert.equal(roleFromClaims(config, { 'realm_access.roles': ['tessera-admins'] }), 'admin', 'a flat claim named with a dot');
    assert.equal(roleFromClaims({ ...config, roleClaim: undefined, roleMap: undefined }, { realm_access: { roles: ['tessera-admins'] } }), undefined);
  });
});
