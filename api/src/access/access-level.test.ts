import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { descend, levelOf, ROOT, type LevelGrants } from './access-level.js';

const down = (...levels: LevelGrants[]) => levels.reduce(descend, ROOT);
const none: LevelGrants = { trashed: false };

describe('access levels down the group tree', () => {
  it('without any grant, a member has the workspace default', () => {
    assert.equal(levelOf(down(none, none), 'user', 'editor'), 'editor');
    assert.equal(levelOf(down(none), 'user', 'viewer'), 'viewer');
    assert.equal(levelOf(down(none), 'user', 'none'), 'none');
  });

  it('admins, hosts and superadmins own everything that is in place', () => {
    const closed = down({ everyone: 'none', trashed: false });
    for (const role of ['admin', 'host', 'superadmin', 'Admin']) assert.equal(levelOf(closed, role, 'none'), 'owner');
  });

  it('a grant by name beats a grant to everyone, at any depth; the nearest of each wins', () => {
    const finance = { user: 'editor' as const, trashed: false };
    assert.equal(levelOf(down(finance, { everyone: 'viewer', trashed: false }), 'user', 'editor'), 'editor');
    assert.equal(levelOf(down({ user: 'viewer', trashed: false }, { user: 'editor', trashed: false }), 'user', 'none'), 'editor');
    assert.equal(levelOf(down({ user: 'editor', trashed: false }, { user: 'none', trashed: false }), 'user', 'editor'), 'none');
    assert.equal(levelOf(down({ everyone: 'none', trashed: false }, none), 'user', 'editor'), 'none');
    assert.equal(levelOf(down({ everyone: 'none', trashed: false }, { everyone: 'viewer', trashed: false }), 'user', 'editor'), 'viewer');
  });

  it('an owner of a group keeps owning everything under it', () => {
    assert.equal(levelOf(down({ user: 'owner', trashed: false }, { user: 'viewer', trashed: false }), 'user', 'none'), 'owner');
  });

  it('what is in the trash, or under something in the trash, is gone even for admins', () => {
    assert.equal(levelOf(down({ trashed: true }, { user: 'owner', trashed: false }), 'admin', 'editor'), 'none');
  });
});
