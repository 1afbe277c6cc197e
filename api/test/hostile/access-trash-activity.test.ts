// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is access to sharing, trash and activity routes.
// Issue 18: hostile input on the sharing, trash and activity routes — malformed bodies, wrong
// types, unknown ids, an `entries` array past its cap, a body past the api's limit. Each is
// refused with its status and text, nothing is stored or changed, and /health still answers.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ACCESS_TEXTS, ACTIVITY_TEXTS, SHARING_MAX_ENTRIES, TRASH_TEXTS } from '@tessera/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { BODY_LIMIT_BYTES } from '../../src/app.js';
import { bodyLimitText } from '../../src/http/error-handler.js';
import { signupAdmin, type Session } from '../support/auth-helpers.js';
import { apiClient } from '../support/api-client.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('hostile: sharing, trash and activity routes', () => {
  let t: TestApp;
  let admin: Session;
  let alice: Session;
  let bob: Session;
  let sheet: string;
  let group: string;
  /** A trash entry Bob (an editor, not an owner) may restore but not delete forever. */
  let trashed: string;

  /** Everything these routes could change: grants, trash, the activity log, sheets and groups. */
  const state = async () => ({
    grants: await t.app.db.selectFrom('item_grants').select(['item_id', 'user_id', 'level']).orderBy('item_id').orderBy('user_id').execute(),
    trash: await t.app.db.selectFrom('trash_entries').select(['id', 'item_id', 'name']).orderBy('id').execute(),
    activity: await t.app.db.selectFrom('activity').select(['id', 'kind', 'item_id']).orderBy('id').execute(),
    sheets: await t.app.db.selectFrom('sheets').select(['id', 'name', 'group_id', 'trashed_in', 'version']).orderBy('id').execute(),
    groups: await t.app.db.selectFrom('groups').select(['id', 'name', 'parent_id', 'trashed_in']).orderBy('id').execute(),
  });

  /** Sends a raw body (any text) as JSON. */
  const raw = (session: Session, method: 'PUT' | 'POST' | 'DELETE', url: string, payload: string) =>
    t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' } });

  const refused = (res: LightMyRequestResponse, status: number, code: string, message: string | RegExp) => {
    assert.equal(res.statusCode, status, res.body);
    const error = res.json().error;
    assert.equal(error.code, code, res.body);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
  };

  /** Runs the attack, then checks that nothing changed and the api still answers. */
  const unchanged = async (attack: () => Promise<void>) => {
    const before = await state();
    await attack();
    assert.deepEqual(await state(), before, 'nothing stored or changed');
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
  };

  before(async () => {
    t = await createTestApp();
    admin = await signupAdmin(t.app);
    [alice, bob] = await Promise.all([signedInMember(t.app, 'user'), signedInMember(t.app, 'user')]);
    const api = apiClient(t.app, alice.accessToken);
    group = (await api.post('/api/v1/groups', { name: 'Team' })).json().id;
    // At root: Alice owns it by her own grant only (an owner of the group above would stay owner).
    sheet = (await api.post('/api/v1/sheets', { name: 'Plan', data: [['a']] })).json().id;
    const old = (await api.post('/api/v1/sheets', { name: 'Old', data: [['x']] })).json().id;
    assert.equal((await api.delete(`/api/v1/sheets/${old}`)).statusCode, 200);
    trashed = (await api.get('/api/v1/trash')).json().items[0].id;
  });
  after(() => t.close());

  for (const type of ['sheet', 'group'] as const) {
    const url = () => `/api/v1/${type}s/${type === 'sheet' ? sheet : group}/access`;
    const notFoundText = type === 'sheet' ? 'Sheet not found' : 'Group not found';

    it(`PUT ${type}s/:id/access: malformed JSON, no body, wrong types and unknown keys are 400`, () =>
      unchanged(async () => {
        refused(await raw(alice, 'PUT', url(), '{"entries": ['), 400, 'bad_request', /JSON/);
        refused(await raw(alice, 'PUT', url(), ''), 400, 'validation_failed', 'Request body is required');
        refused(await raw(alice, 'PUT', url(), '[]'), 400, 'validation_failed', /expected object/);
        refused(await raw(alice, 'PUT', url(), '{"entries": "everyone"}'), 400, 'validation_failed', /expected array/);
        refused(await raw(alice, 'PUT', url(), '{"entries": [], "owner": "me"}'), 400, 'validation_failed', /Unrecognized key/);
        refused(await raw(alice, 'PUT', url(), '{"entries": [{"user_id": null, "level": "god"}]}'), 400, 'validation_failed', /owner.*editor.*viewer.*none/);
        refused(await raw(alice, 'PUT', url(), '{"entries": [{"user_id": 7, "level": "viewer"}]}'), 400, 'validation_failed', 'Invalid id');
        refused(await raw(alice, 'PUT', url(), '{"entries": [{"user_id": "not-a-uuid", "level": "viewer"}]}'), 400, 'validation_failed', 'Invalid id');
        refused(await raw(alice, 'PUT', url(), '{"entries": [{"level": "viewer"}]}'), 400, 'validation_failed', 'Invalid id');
        refused(await raw(alice, 'PUT', url(), '{"entries": [{"user_id": null, "level": "viewer", "admin": true}]}'), 400, 'validation_failed', /Unrecognized key/);
        refused(await raw(alice, 'PUT', url(), '{"__proto__": {"entries": []}}'), 400, 'bad_request', /JSON/);
      }));

    it(`PUT ${type}s/:id/access: duplicates, Everyone as owner, an unknown member and dropping one's own ownership are 400`, () =>
      unchanged(async () => {
        const api = apiClient(t.app, alice.accessToken);
        refused(
          await api.put(url(), { entries: [{ user_id: bob.userId, level: 'viewer' }, { user_id: bob.userId, level: 'editor' }] }),
          400,
          'validation_failed',
          'Each member may appear only once',
        );
        refused(await api.put(url(), { entries: [{ user_id: null, level: 'owner' }] }), 400, 'validation_failed', 'Everyone in the workspace cannot be owner');
        refused(await api.put(url(), { entries: [{ user_id: crypto.randomUUID(), level: 'viewer' }] }), 400, 'bad_request', 'Unknown member in entries');
        // Written, checked, rolled back: the grants and the activity log are as before.
        refused(await api.put(url(), { entries: [{ user_id: alice.userId, level: 'viewer' }] }), 400, 'bad_request', ACCESS_TEXTS.keepOwnOwnership);
      }));

    it(`PUT ${type}s/:id/access: entries past ${SHARING_MAX_ENTRIES} and a body past the api's limit are refused before anything is read`, () =>
      unchanged(async () => {
        const api = apiClient(t.app, alice.accessToken);
        const many = Array.from({ length: SHARING_MAX_ENTRIES + 1 }, () => ({ user_id: crypto.randomUUID(), level: 'viewer' }));
        refused(await api.put(url(), { entries: many }), 400, 'validation_failed', /at most 500|<=500/);
        const huge = JSON.stringify({ entries: [{ user_id: null, level: 'viewer', pad: 'x'.repeat(BODY_LIMIT_BYTES) }] });
        refused(await raw(alice, 'PUT', url(), huge), 413, 'payload_too_large', bodyLimitText(BODY_LIMIT_BYTES));
      }));

    it(`PUT ${type}s/:id/access: a bad id is 400, an unknown one 404, a non-owner 403`, () =>
      unchanged(async () => {
        const body = { entries: [{ user_id: null, level: 'none' }] };
        refused(await apiClient(t.app, alice.accessToken).put(`/api/v1/${type}s/nope/access`, body), 400, 'validation_failed', `Invalid ${type} id`);
        refused(await apiClient(t.app, alice.accessToken).put(`/api/v1/${type}s/${crypto.randomUUID()}/access`, body), 404, 'not_found', notFoundText);
        refused(await apiClient(t.app, bob.accessToken).put(url(), body), 403, 'forbidden', ACCESS_TEXTS.ownersOnly);
        // A trashed item does not exist for sharing.
        const old = (await t.app.db.selectFrom('trash_entries').select('item_id').where('id', '=', trashed).executeTakeFirstOrThrow()).item_id;
        if (type === 'sheet') refused(await apiClient(t.app, admin.accessToken).put(`/api/v1/sheets/${old}/access`, body), 404, 'not_found', notFoundText);
      }));
  }

  it('GET trash answers only the list (query ignored); restore and delete forever refuse bad and unknown ids', () =>
    unchanged(async () => {
      const api = apiClient(t.app, bob.accessToken);
      const list = await api.get('/api/v1/trash?all=true&user_id=x');
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json().items.map((i: { id: string }) => i.id), [trashed], 'the workspace default makes Bob an editor of root items');
      for (const method of ['POST', 'DELETE'] as const) {
        const path = (id: string) => (method === 'POST' ? `/api/v1/trash/${id}/restore` : `/api/v1/trash/${id}`);
        const send = (id: string) => t.app.inject({ method, url: path(id), headers: { authorization: `Bearer ${bob.accessToken}` } });
        refused(await send('nope'), 400, 'validation_failed', 'Invalid trash item id');
        refused(await send("1' OR '1'='1"), 400, 'validation_failed', 'Invalid trash item id');
        refused(await send(crypto.randomUUID()), 404, 'not_found', TRASH_TEXTS.notFound);
        // The item's own id is not its trash entry's.
        const itemId = (await t.app.db.selectFrom('trash_entries').select('item_id').where('id', '=', trashed).executeTakeFirstOrThrow()).item_id;
        refused(await send(itemId), 404, 'not_found', TRASH_TEXTS.notFound);
        refused(await raw(bob, method, path(trashed), '{"broken":'), 400, 'bad_request', /JSON/);
        refused(await raw(bob, method, path(trashed), JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT_BYTES) })), 413, 'payload_too_large', bodyLimitText(BODY_LIMIT_BYTES));
      }
      // Bob edits but does not own it: no delete forever.
      refused(await api.delete(`/api/v1/trash/${trashed}`), 403, 'forbidden', 'Only owners can delete forever');
    }));

  it('GET activity: non-admins are 403; bad filters, limits, cursors and unknown parameters are 400', () =>
    unchanged(async () => {
      refused(await apiClient(t.app, bob.accessToken).get('/api/v1/activity'), 403, 'forbidden', ACTIVITY_TEXTS.adminsOnly);
      const get = (query: string) => apiClient(t.app, admin.accessToken).get(`/api/v1/activity?${query}`);
      refused(await get('kind=everything'), 400, 'validation_failed', /Invalid option/);
      refused(await get('user_id=1%20OR%201%3D1'), 400, 'validation_failed', 'Invalid id');
      refused(await get('item_id=x'), 400, 'validation_failed', 'Invalid id');
      refused(await get('limit=0'), 400, 'validation_failed', /Too small/);
      refused(await get('limit=201'), 400, 'validation_failed', /Too big/);
      refused(await get('limit=ten'), 400, 'validation_failed', /expected number/);
      refused(await get('before=-5'), 400, 'validation_failed', /Too small/);
      refused(await get('before=1e400'), 400, 'validation_failed', /expected number|Invalid input/);
      refused(await get('limit=1&limit=2'), 400, 'validation_failed', /expected number/);
      refused(await get('actor=admin'), 400, 'validation_failed', /Unrecognized key/);
      const ok = await get(`item_id=${crypto.randomUUID()}`);
      assert.equal(ok.statusCode, 200);
      assert.deepEqual(ok.json(), { entries: [], next_before: null });
    }));
});
