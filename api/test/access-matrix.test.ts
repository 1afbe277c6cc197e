// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is each route's access gate.
// Issue 18: owner / editor / viewer / no access × every route on a sheet or a group, enumerated
// from the routes the app registers (as the auth sweep is), so that a new route cannot escape.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCESS_TEXTS, API_TOKEN_TEXTS, API_TOKENS_PATH, type AccessNeed, ApiTokenListSchema, meetsAccess } from '@tessera/contracts';
import { signupAdmin, type Session } from './support/auth-helpers.js';
import { apiClient } from './support/api-client.js';
import { signedInMember } from './support/members.js';
import type { CollectedRoute } from './support/route-collector.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Routes on one item that check access in their handler (each is tested on its own below). */
const CHECKED_IN_HANDLER = [
  'DELETE /api/v1/sheets/:id',
  'DELETE /api/v1/groups/:id',
  'GET /api/v1/sheets/:id/access',
  'PUT /api/v1/sheets/:id/access',
  'GET /api/v1/groups/:id/access',
  'PUT /api/v1/groups/:id/access',
];

/** Routes that name no single item: they filter or check the place an item goes to (tested in access.test.ts). */
const ITEMLESS = [
  'POST /api/v1/sheets',
  'GET /api/v1/sheets',
  'POST /api/v1/groups',
  'GET /api/v1/groups',
  'GET /api/v1/groups/tree',
  'POST /api/v1/items/move',
  'PUT /api/v1/items/:type/:id/rename',
  'POST /api/v1/import',
  'GET /api/v1/trash',
  'POST /api/v1/trash/:id/restore',
  'DELETE /api/v1/trash/:id',
  'GET /api/v1/activity',
  'POST /api/v1/activity/git-revert',
];

/**
 * Routes whose call without a query is refused (400) once through the gate: the query that makes it a real
 * call, so that a level let through gets the answer (200), not only 'not a 403'.
 */
const QUERIES: Record<string, string> = {
  // Find (GET /sheets/:id/find): anyone who may view the sheet may find in it, read-only members too.
  'GET /api/v1/sheets/:id/find': '?q=A',
  // Find in a version (its windowed preview's find): as the version's windows, viewers too. Called on version 1.
  'GET /api/v1/sheets/:id/versions/:versionId/find': '?q=A',
};

/** Routes whose call with an empty body is refused (400) once through the gate: the body that makes it a real call (as QUERIES). */
const BODIES: Record<string, unknown> = {
  // A windowed sheet's row filter and its column's values (personal, nothing stored): anyone who may view the sheet, viewers too.
  'POST /api/v1/sheets/:id/filter': { filters: [{ column: 0, condition: { kind: 'not_empty', value: '' } }] },
  'POST /api/v1/sheets/:id/filter/values': { filters: [], column: 0 },
  // Find with the row filter on (its filters in the body): as GET's find, viewers too.
  'POST /api/v1/sheets/:id/find': { q: 'A', filters: [{ column: 0, condition: { kind: 'not_empty', value: '' } }] },
};

const key = (r: Pick<CollectedRoute, 'method' | 'url'>) => `${r.method} ${r.url}`;
const onItem = (r: CollectedRoute) => /^\/api\/v1\/(sheets|groups)\/:id(\/|$)/.test(r.url);

type Who = 'owner' | 'editor' | 'viewer' | 'none';
const LEVELS: Who[] = ['none', 'viewer', 'editor', 'owner'];

function concrete(url: string, ids: { sheet: string; group: string }, item: 'sheet' | 'group', real = false): string {
  return url
    .replace(':id', item === 'sheet' ? ids.sheet : ids.group)
    // A proposal's id (none exists): routes on a committed version are covered in access.test.ts; one called
    // for real (QUERIES) on the sheet's first version.
    .replace(':versionId', real ? '1' : '00000000-0000-4000-8000-000000000001')
    .replace(':chartId', '00000000-0000-4000-8000-000000000002')
    .replace(':version', '1')
    .replace(':row', '0')
    .replace(':col', '0');
}

describe('access matrix: every route on a sheet or a group, for an owner, an editor, a viewer and a member with no access', () => {
  let t: TestApp;
  let sessions: Record<Who, Session>;
  let ids: { sheet: string; group: string };

  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
    const [owner, editor, viewer, none] = await Promise.all([
      signedInMember(t.app, 'user'),
      signedInMember(t.app, 'user'),
      signedInMember(t.app, 'user'),
      signedInMember(t.app, 'user'),
    ]);
    sessions = { owner, editor, viewer, none };
    const api = apiClient(t.app, owner.accessToken);
    const group = (await api.post('/api/v1/groups', { name: 'Finance' })).json();
    const sheet = (await api.post('/api/v1/sheets', { name: 'Budget', group_id: group.id, data: [['a', 1]] })).json();
    ids = { sheet: sheet.id, group: group.id };
    const shared = await api.put(`/api/v1/groups/${group.id}/access`, {
      entries: [
        { user_id: owner.userId, level: 'owner' },
        { user_id: editor.userId, level: 'editor' },
        { user_id: viewer.userId, level: 'viewer' },
        { user_id: null, level: 'none' },
      ],
    });
    assert.equal(shared.statusCode, 200, shared.body);
  });
  after(() => t.close());

  it('every route on one sheet or group declares the level it needs, or checks it in its handler; every other route is known', () => {
    const routes = t.routes.filter((r) => !r.public && r.method !== 'HEAD' && r.url.startsWith('/api/v1/'));
    for (const r of routes.filter(onItem)) {
      assert.ok(r.access || CHECKED_IN_HANDLER.includes(key(r)), `${key(r)} names a sheet or group but declares no access level`);
    }
    const known = new Set([...CHECKED_IN_HANDLER, ...ITEMLESS]);
    const unclassified = routes.filter((r) => !onItem(r) && !known.has(key(r)) && !/^\/api\/v1\/(auth|users)\b/.test(r.url));
    assert.deepEqual(unclassified.map(key), [], 'a new route must say how it checks access');
    assert.ok(routes.filter((r) => r.access).length >= 18, 'the sheet and group routes are collected');
    for (const queried of [...Object.keys(QUERIES), ...Object.keys(BODIES)]) assert.ok(routes.some((r) => key(r) === queried && r.access), `${queried} is collected with its level`);
  });

  it('each level gets exactly what it may: no access → 404, too low → 403 with the reason, enough → through', async () => {
    const declared = t.routes.filter((r) => r.access && r.method !== 'HEAD');
    // Reads first, then writes, the owner-only ones last: the calls that get through must not take the item away.
    const order = (r: CollectedRoute) => ({ view: 0, edit: 1, own: 2 })[r.access!.need];
    for (const route of [...declared].sort((a, b) => order(a) - order(b))) {
      const rule = route.access!;
      const query = QUERIES[key(route)];
      const body = BODIES[key(route)];
      const url = concrete(route.url, ids, rule.item, query !== undefined) + (query ?? '');
      for (const who of LEVELS) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: `Bearer ${sessions[who].accessToken}`, ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
          ...(route.method === 'GET' ? {} : { payload: JSON.stringify(body ?? {}) }),
        });
        const label = `${key(route)} as ${who} (needs ${rule.need}) answered ${res.statusCode} ${res.body.slice(0, 200)}`;
        const notFound = rule.item === 'sheet' ? 'Sheet not found' : 'Group not found';
        if (who === 'none') {
          assert.equal(res.statusCode, 404, label);
          assert.equal(res.json().error.message, notFound, label);
        } else if (!meetsAccess(who, rule.need as AccessNeed)) {
          assert.equal(res.statusCode, 403, label);
          const reason = rule.need === 'own' ? ACCESS_TEXTS.ownersOnly : rule.item === 'sheet' ? ACCESS_TEXTS.viewOnly : ACCESS_TEXTS.viewOnlyGroup;
          assert.equal(res.json().error.message, reason, label);
        } else {
          assert.notEqual(res.statusCode, 403, label);
          assert.ok(!(res.statusCode === 404 && res.json().error?.message === notFound), label);
          assert.ok(res.statusCode < 500, label);
          if (query !== undefined || body !== undefined) assert.equal(res.statusCode, 200, label);
        }
      }
    }
  });

  it('the routes that check in their handler: sharing is seen by anyone with access and changed by owners; delete is for owners', async () => {
    for (const item of ['sheet', 'group'] as const) {
      const base = `/api/v1/${item}s/${item === 'sheet' ? ids.sheet : ids.group}`;
      for (const who of LEVELS) {
        const api = apiClient(t.app, sessions[who].accessToken);
        const seen = await api.get(`${base}/access`);
        assert.equal(seen.statusCode, who === 'none' ? 404 : 200, `${item} sharing as ${who}: ${seen.body}`);
        if (who !== 'owner') {
          const changed = await api.put(`${base}/access`, { entries: [] });
          assert.equal(changed.statusCode, who === 'none' ? 404 : 403, `${item} sharing change as ${who}`);
          const deleted = await api.delete(base);
          assert.equal(deleted.statusCode, who === 'none' ? 404 : 403, `${item} delete as ${who}`);
          if (who !== 'none') assert.equal(deleted.json().error.message, ACCESS_TEXTS.ownersOnly);
        }
      }
    }
    // Nothing above changed anything: the viewer still reads, the sheet is still there.
    const viewer = apiClient(t.app, sessions.viewer.accessToken);
    assert.equal((await viewer.get(`/api/v1/sheets/${ids.sheet}`)).json().access, 'viewer');
  });

  it("personal API tokens (under /auth: one's own account): each member lists and revokes only their own", async () => {
    const routes = t.routes.filter((r) => r.url.startsWith(API_TOKENS_PATH) && r.method !== 'HEAD').map(key);
    assert.deepEqual([...new Set(routes)].sort(), [`DELETE ${API_TOKENS_PATH}/:id`, `GET ${API_TOKENS_PATH}`, `POST ${API_TOKENS_PATH}`]);
    const ids: Partial<Record<Who, string>> = {};
    for (const who of LEVELS) {
      const res = await apiClient(t.app, sessions[who].accessToken).post(API_TOKENS_PATH, { name: who, scope: 'read', expires_in_days: 7 });
      assert.equal(res.statusCode, 201, res.body);
      ids[who] = res.json().id;
    }
    for (const who of LEVELS) {
      const api = apiClient(t.app, sessions[who].accessToken);
      const listed = ApiTokenListSchema.parse((await api.get(API_TOKENS_PATH)).json()).tokens;
      assert.deepEqual(listed.map((x) => x.id), [ids[who]], `${who} sees only their own tokens`);
      for (const other of LEVELS.filter((o) => o !== who)) {
        const res = await api.delete(`${API_TOKENS_PATH}/${ids[other]}`);
        assert.equal(res.statusCode, 404, `${who} revoking ${other}'s token`);
        assert.equal(res.json().error.message, API_TOKEN_TEXTS.notFound);
      }
    }
    const live = await t.app.db.selectFrom('api_tokens').select('id').where('revoked_at', 'is', null).execute();
    assert.equal(live.length, LEVELS.length, 'no token was revoked by someone else');
  });
});
