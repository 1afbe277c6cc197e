import type { GroupTree } from '@tessera/contracts';
import { canAddInto, canMoveInto, isSelfOrDescendant, moveTargets } from './drag-drop.js';
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

describe('drops are checked against the target\'s level (issue 18)', () => {
  const readOnly = { ...group('Read only'), access: 'viewer' as const };
  const editable = { ...group('Team'), access: 'editor' as const };
  const mine = { ...group('Mine'), access: 'owner' as const };
  const shared = (rootAccess: GroupTree['root_access']): GroupTree => ({
    groups: [readOnly, editable, mine].map((g) => ({ group: g, children: [], sheets: [] })),
    sheets: [sheet({ name: 'Loose', access: 'editor' })],
    root_access: rootAccess,
  });
  const loose = (t: GroupTree) => ({ type: 'sheet' as const, id: t.sheets[0].id, parentId: null });

  test('no drop onto a group the user may only view; editors and owners take drops', () => {
    const t = shared('editor');
    expect(canMoveInto(t, loose(t), readOnly.id)).toBe(false);
    expect(canMoveInto(t, loose(t), editable.id)).toBe(true);
    expect(canMoveInto(t, loose(t), mine.id)).toBe(true);
    expect(canMoveInto(t, { type: 'group', id: mine.id, parentId: null }, readOnly.id)).toBe(false);
    expect(canAddInto(t, readOnly.id)).toBe(false);
  });

  test("no drop to root level when the workspace lets the user only view there; 'Move to...' leaves both out", () => {
    const t = shared('viewer');
    const item = { type: 'sheet' as const, id: sheet({ name: 'Inside', group_id: editable.id }).id, parentId: editable.id };
    expect(canMoveInto(t, item, null)).toBe(false);
    expect(canAddInto(t, null)).toBe(false);
    expect(moveTargets(t, item).map((target) => target.name)).toEqual(['Mine']);
    expect(canAddInto(shared('editor'), null)).toBe(true);
  });

  test('a tree without levels (an api before issue 18) leaves every place to the server', () => {
    expect(canAddInto(tree, null)).toBe(true);
    expect(canAddInto(tree, other.id)).toBe(true);
  });
});
