import { createDevShellContext } from '@tessera/contracts';
import { fetchNavigationTree } from './navigation-tree.service.js';
import { apiError, json, sheet, startApi, type TestApi } from './navigator-test-api.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

test('two failed replies then a tree: the third attempt returns it', async () => {
  let n = 0;
  const tree = { groups: [], sheets: [sheet({ name: 'A' })] };
  api = await startApi((_req, res) => (++n < 3 ? apiError(res, 502, 'bad_gateway', 'Down') : json(res, 200, tree)));
  const { api: client } = createDevShellContext({ apiBaseURL: api.url });
  await expect(fetchNavigationTree(client, [1, 1])).resolves.toEqual(tree);
  expect(api.calls).toHaveLength(3);
});

test('a reply that does not match the tree schema fails at once, without retrying', async () => {
  api = await startApi((_req, res) => json(res, 200, { groups: 'nope' }));
  const { api: client } = createDevShellContext({ apiBaseURL: api.url });
  await expect(fetchNavigationTree(client, [1, 1])).rejects.toThrow();
  expect(api.calls).toEqual(['GET /api/v1/groups/tree']);
});
