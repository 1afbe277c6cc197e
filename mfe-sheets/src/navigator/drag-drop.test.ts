import type { GroupTree } from '@tessera/contracts';
import { canMoveInto, isSelfOrDescendant, moveTargets } from './drag-drop.js';
import { group, sheet } from './navigator-test-api.js';

const outer = group('Outer');
const inner = group('Inner', outer.id);
const deepest = group('Deepest', inner.id);
const other = group('Other');
const tree: GroupTree = {
  groups: [
    { group: outer, children: [{ group: inner, children: [{ group: deepest, children: [], sheets: [] }], sheets: [] }], sheets: [] },
    { group: other, children: [], sheets: [] },
  ],
  sheets: [sheet({ name: 'Root' })],
};

test('a group is itself and holds its descendants at any depth, not its siblings or parents', () => {
  expect(isSelfOrDescendant(tree, outer.id, outer.id)).toBe(true);
  expect(isSelfOrDescendant(tree, outer.id, deepest.id)).toBe(true);
  expect(isSelfOrDescendant(tree, inner.id, outer.id)).toBe(false);
  expect(isSelfOrDescendant(tree, outer.id, other.id)).toBe(false);
});

test('a group cannot be dropped into itself or a descendant, but into any other group or root', () => {
  const dragged = { type: 'group' as const, id: outer.id, parentId: null };
  expect(canMoveInto(tree, dragged, outer.id)).toBe(false);
  expect(canMoveInto(tree, dragged, inner.id)).toBe(false);
  expect(canMoveInto(tree, dragged, deepest.id)).toBe(false);
  expect(canMoveInto(tree, dragged, other.id)).toBe(true);
  expect(canMoveInto(tree, { type: 'group', id: deepest.id, parentId: inner.id }, null)).toBe(true);
  expect(canMoveInto(tree, { type: 'group', id: deepest.id, parentId: inner.id }, outer.id)).toBe(true);
});

test('a drop where the item already is changes nothing and is refused', () => {
  expect(canMoveInto(tree, { type: 'sheet', id: tree.sheets[0].id, parentId: null }, null)).toBe(false);
  expect(canMoveInto(tree, { type: 'sheet', id: tree.sheets[0].id, parentId: null }, deepest.id)).toBe(true);
  expect(canMoveInto(tree, { type: 'group', id: inner.id, parentId: outer.id }, outer.id)).toBe(false);
});

test("'Move to...' offers root level and every group in tree order, minus the refused places", () => {
  const names = (item: Parameters<typeof moveTargets>[1]) => moveTargets(tree, item).map((t) => `${'  '.repeat(t.depth)}${t.name}`);
  expect(names({ type: 'sheet', id: tree.sheets[0].id, parentId: null })).toEqual(['Outer', '  Inner', '    Deepest', 'Other']);
  expect(names({ type: 'group', id: inner.id, parentId: outer.id })).toEqual(['Root level', 'Other']);
  expect(moveTargets(tree, { type: 'group', id: other.id, parentId: null }).map((t) => t.id)).toEqual([outer.id, inner.id, deepest.id]);
});
