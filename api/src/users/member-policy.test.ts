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
});
