// Issue 17 §6: two concurrent opposite group moves (A into B, B into A) must not both pass their
// cycle check, which would leave both groups, and their sheets, unreachable from /groups/tree.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GROUP_CYCLE_MESSAGE, GroupSchema, type GroupTreeNode, GroupTreeSchema } from '@tessera/contracts';
import { signupAdmin } from '../support/auth-helpers.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const PAIRS = 12;
const ROUNDS = 3;

describe(`hostile: concurrent opposite group moves (${PAIRS} pairs × ${ROUNDS} rounds at once)`, () => {
  let t: TestApp;
  let api: ApiClient;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
  });
  after(() => t.close());

  const group = async (name: string) => {
    const res = await api.post('/api/v1/groups', { name });
    assert.equal(res.statusCode, 201, res.body);
    return GroupSchema.parse(res.json());
  };

  it(`one move of each pair is refused (400, the cycle text); every group and sheet stays in the tree`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const pairs = await Promise.all(
        Array.from({ length: PAIRS }, async (_, i) => {
          const a = await group(`r${round} A${i}`);
          const b = await group(`r${round} B${i}`);
          const sheet = await api.post('/api/v1/sheets', { name: `r${round} in A${i}`, group_id: a.id });
          assert.equal(sheet.statusCode, 201, sheet.body);
          return { a, b, sheetId: sheet.json().id as string };
        }),
      );
      // Both moves of every pair in flight together; by PUT and by items/move alike.
      const results = await Promise.all(
        pairs.flatMap(({ a, b }) => [
          api.put(`/api/v1/groups/${a.id}`, { parent_id: b.id }),
          api.post('/api/v1/items/move', { item: { type: 'group', id: b.id }, target: { group_id: a.id } }),
        ]),
      );
      for (let i = 0; i < PAIRS; i++) {
        const [first, second] = [results[2 * i], results[2 * i + 1]];
        const statuses = [first.statusCode, second.statusCode].sort();
        assert.deepEqual(statuses, [200, 400], `pair ${i}: ${first.body} / ${second.body}`);
        const refused = first.statusCode === 400 ? first : second;
        assert.equal(refused.json().error.message, GROUP_CYCLE_MESSAGE);
      }

      const tree = GroupTreeSchema.parse((await api.get('/api/v1/groups/tree')).json());
      const groupIds = new Set<string>();
      const sheetIds = new Set<string>(tree.sheets.map((s) => s.id));
      const walk = (nodes: GroupTreeNode[]) => {
        for (const node of nodes) {
          groupIds.add(node.group.id);
          for (const s of node.sheets) sheetIds.add(s.id);
          walk(node.children);
        }
      };
      walk(tree.groups);
      for (const { a, b, sheetId } of pairs) {
        assert.ok(groupIds.has(a.id) && groupIds.has(b.id), `round ${round}: ${a.name} and ${b.name} are both in the tree`);
        assert.ok(sheetIds.has(sheetId), `round ${round}: the sheet in ${a.name} is in the tree`);
      }
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
  });
});
