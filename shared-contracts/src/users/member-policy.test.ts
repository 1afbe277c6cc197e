import { memberRefusal } from './member-policy.js';

describe('member policy', () => {
  const host = { id: 'h', role: 'HOST' };
  it('compares roles case-insensitively', () => {
    expect(memberRefusal({ id: 'a', role: 'SuperAdmin' }, { kind: 'create', role: 'admin' })).toBe(null);
    expect(memberRefusal({ id: 'a', role: 'Admin' }, { kind: 'delete', target: host })).toMatch(/Host users cannot be deleted/);
    expect(memberRefusal({ id: 'a', role: 'admin' }, { kind: 'promote', target: host })).toMatch(/Host users cannot be promoted/);
  });
  it('lets anyone edit their own info, and nobody set their own password without the current one', () => {
    expect(memberRefusal({ id: 'u', role: 'user' }, { kind: 'editInfo', target: { id: 'u', role: 'user' } })).toBe(null);
    expect(memberRefusal({ id: 'u', role: 'superadmin' }, { kind: 'setPassword', target: { id: 'u', role: 'superadmin' } })).toBeTruthy();
  });
  it('refuses editing, resetting the password of, or deleting a member of a higher rank', () => {
    const admin = { id: 'a', role: 'admin' };
    const superadmin = { id: 's', role: 'superadmin' };
    expect(memberRefusal(admin, { kind: 'setPassword', target: host })).toBe('An admin cannot change the password of a host');
    expect(memberRefusal(admin, { kind: 'editInfo', target: superadmin })).toBe('An admin cannot edit the info of a superadmin');
    expect(memberRefusal(admin, { kind: 'delete', target: superadmin })).toBe('An admin cannot delete a superadmin');
    expect(memberRefusal({ id: 'h2', role: 'Host' }, { kind: 'setPassword', target: superadmin })).toBe('A host cannot change the password of a superadmin');
    // Peers and those below: allowed.
    expect(memberRefusal({ id: 'h2', role: 'host' }, { kind: 'setPassword', target: host })).toBe(null);
    expect(memberRefusal(admin, { kind: 'setPassword', target: { id: 'a2', role: 'Admin' } })).toBe(null);
    expect(memberRefusal({ id: 's2', role: 'superadmin' }, { kind: 'editInfo', target: host })).toBe(null);
    expect(memberRefusal({ id: 's2', role: 'superadmin' }, { kind: 'delete', target: superadmin })).toBe(null);
    // One's own info stays editable whatever the rank.
    expect(memberRefusal(superadmin, { kind: 'editInfo', target: superadmin })).toBe(null);
  });
});
