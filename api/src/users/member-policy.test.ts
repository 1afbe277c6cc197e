import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refusal } from './member-policy.js';

describe('member policy', () => {
  const host = { id: 'h', role: 'HOST' };
  it('compares roles case-insensitively', () => {
    assert.equal(refusal({ id: 'a', role: 'SuperAdmin' }, { kind: 'create', role: 'admin' }), null);
    assert.match(refusal({ id: 'a', role: 'Admin' }, { kind: 'delete', target: host }) ?? '', /Host users cannot be deleted/);
    assert.match(refusal({ id: 'a', role: 'admin' }, { kind: 'promote', target: host }) ?? '', /Host users cannot be promoted/);
  });
  it('lets anyone edit their own info, and nobody set their own password without the current one', () => {
    assert.equal(refusal({ id: 'u', role: 'user' }, { kind: 'editInfo', target: { id: 'u', role: 'user' } }), null);
    assert.ok(refusal({ id: 'u', role: 'superadmin' }, { kind: 'setPassword', target: { id: 'u', role: 'superadmin' } }));
  });
  it('refuses editing, resetting the password of, or deleting a member of a higher rank', () => {
    const admin = { id: 'a', role: 'admin' };
    const superadmin = { id: 's', role: 'superadmin' };
    assert.equal(refusal(admin, { kind: 'setPassword', target: host }), 'An admin cannot change the password of a host');
    assert.equal(refusal(admin, { kind: 'editInfo', target: superadmin }), 'An admin cannot edit the info of a superadmin');
    assert.equal(refusal(admin, { kind: 'delete', target: superadmin }), 'An admin cannot delete a superadmin');
    assert.equal(refusal({ id: 'h2', role: 'Host' }, { kind: 'setPassword', target: superadmin }), 'A host cannot change the password of a superadmin');
    // Peers and those below: allowed.
    assert.equal(refusal({ id: 'h2', role: 'host' }, { kind: 'setPassword', target: host }), null);
    assert.equal(refusal(admin, { kind: 'setPassword', target: { id: 'a2', role: 'Admin' } }), null);
    assert.equal(refusal({ id: 's2', role: 'superadmin' }, { kind: 'editInfo', target: host }), null);
    assert.equal(refusal({ id: 's2', role: 'superadmin' }, { kind: 'delete', target: superadmin }), null);
    // One's own info stays editable whatever the rank.
    assert.equal(refusal(superadmin, { kind: 'editInfo', target: superadmin }), null);
  });
});
