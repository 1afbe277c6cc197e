import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { GroupTree, GroupTreeNode, MoveItemBody } from '@tessera/contracts';
import userEvent from '@testing-library/user-event';
import { renderInShell } from '@tessera/jest-react';
import Navigator from './Navigator.js';
import { apiError, group, json, sheet, startApi, testShell, type Handler, type TestApi } from './navigator-test-api.js';
import { chooseMenuItem } from './navigator-test-ui.js';
import { EMPTY_TREE, useSheetTree } from './sheet-tree.store.js';

let api: TestApi | undefined;
afterEach(async () => {
  useSheetTree.setState({ status: 'loading', tree: EMPTY_TREE });
  const open = api;
  api = undefined;
  await open?.close();
});

/** Groups Projects > Archive, and Other; the sheet Plan in Projects, Budget at root. */
function workspace() {
  const projects = group('Projects');
  const archive = group('Archive', projects.id);
  const other = group('Other');
  const plan = sheet({ name: 'Plan', group_id: projects.id });
  const budget = sheet({ name: 'Budget' });
  const tree: GroupTree = {
    groups: [
      { group: projects, children: [{ group: archive, children: [], sheets: [] }], sheets: [plan] },
      { group: other, children: [], sheets: [] },
    ],
    sheets: [budget],
  };
  return { tree, projects, archive, other, plan, budget };
}

function allNodes(nodes: GroupTreeNode[]): GroupTreeNode[] {
  return nodes.flatMap((n) => [n, ...allNodes(n.children)]);
}

/** Moves an item in the tree as the server does. */
function applyMove(tree: GroupTree, { item, target }: MoveItemBody) {
  const nodes = allNodes(tree.groups);
  const holder = (id: string | null) => (id === null ? tree : nodes.find((n) => n.group.id === id)!);
  if (item.type === 'sheet') {
    const from = [tree, ...nodes].find((h) => h.sheets.some((s) => s.id === item.id))!;
    const moved = from.sheets.find((s) => s.id === item.id)!;
    from.sheets = from.sheets.filter((s) => s.id !== item.id);
    moved.group_id = target.group_id;
    holder(target.group_id).sheets.push(moved);
  } else {
    const node = nodes.find((n) => n.group.id === item.id)!;
    tree.groups = tree.groups.filter((n) => n !== node);
    for (const n of nodes) n.children = n.children.filter((c) => c !== node);
    node.group.parent_id = target.group_id;
    if (target.group_id === null) tree.groups.push(node);
    else nodes.find((n) => n.group.id === target.group_id)!.children.push(node);
  }
}

async function renderTree(override?: Handler) {
  const w = workspace();
  const moves: MoveItemBody[] = [];
  api = await startApi((req, res, body) => {
    if (override?.(req, res, body) === true || res.writableEnded) return;
    if (req.method === 'GET' && req.url === '/api/v1/groups/tree') return json(res, 200, w.tree);
    if (req.method === 'POST' && req.url === '/api/v1/items/move') {
      const move = body as MoveItemBody;
      moves.push(move);
      applyMove(w.tree, move);
      return json(res, 200, { type: move.item.type, id: move.item.id, name: 'x', parent_id: move.target.group_id });
    }
    apiError(res, 404, 'not_found', 'Not found');
  });
  renderInShell(<Navigator shell={testShell(api.url)} />);
  await screen.findByRole('list', { name: 'Sheet tree' });
  return { ...w, moves, calls: api.calls };
}

/** A dataTransfer as the browser hands the page (jsdom has none). */
function dataTransfer() {
  const data = new Map<string, string>();
  return {
    data,
    effectAllowed: 'all',
    dropEffect: 'none',
    setData: (type: string, value: string) => data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
  };
}

const row = (type: 'sheet' | 'group', id: string) => screen.getByTestId(`row-${type}-${id}`);
const zone = () => screen.findByText('Drop here to move to root level');

/** Starts a drag on a row and waits for the root zone, as a user sees it appear. */
async function startDrag(type: 'sheet' | 'group', id: string) {
  const transfer = dataTransfer();
  const source = row(type, id);
  expect(source).toHaveAttribute('draggable', 'true');
  fireEvent.dragStart(source, { dataTransfer: transfer });
  await zone();
  return { transfer, source };
}

/** Drags over the target and drops; returns whether the target accepted the drag (cancelled dragover). */
function dropOn(target: HTMLElement, transfer = dataTransfer()) {
  fireEvent.dragEnter(target, { dataTransfer: transfer });
  const accepted = !fireEvent.dragOver(target, { dataTransfer: transfer });
  fireEvent.drop(target, { dataTransfer: transfer });
  return accepted;
}

test('the root zone shows only while dragging', async () => {
  const { budget } = await renderTree();
  expect(screen.queryByText('Drop here to move to root level')).not.toBeInTheDocument();
  const { source, transfer } = await startDrag('sheet', budget.id);
  expect(transfer.data.get('application/x-tessera-item')).toBe(JSON.stringify({ type: 'sheet', id: budget.id }));
  expect(transfer.data.get('text/plain')).toBe('Budget');
  expect(transfer.effectAllowed).toBe('move');
  fireEvent.dragEnd(source);
  await waitFor(() => expect(screen.queryByText('Drop here to move to root level')).not.toBeInTheDocument());
});

test('a root sheet dropped on a group moves into it; dragged back to the root zone it returns to root level', async () => {
  const { budget, other, moves } = await renderTree();
  const first = await startDrag('sheet', budget.id);
  expect(dropOn(row('group', other.id), first.transfer)).toBe(true);
  const folder = screen.getByTestId(`group-${other.id}`);
  expect(await within(folder).findByText('Budget')).toBeInTheDocument();
  expect(moves).toEqual([{ item: { type: 'sheet', id: budget.id }, target: { group_id: other.id } }]);
  expect(screen.queryByText('Drop here to move to root level')).not.toBeInTheDocument();

  const second = await startDrag('sheet', budget.id);
  expect(dropOn(screen.getByTestId('root-drop-zone'), second.transfer)).toBe(true);
  await waitFor(() => expect(within(folder).queryByText('Budget')).not.toBeInTheDocument());
  expect(screen.getByTestId(`sheet-${budget.id}`).parentElement).toBe(screen.getByRole('list', { name: 'Sheet tree' }));
  expect(moves[1]).toEqual({ item: { type: 'sheet', id: budget.id }, target: { group_id: null } });
});

test('a group moves into another group, with what it holds', async () => {
  const { projects, other, plan, moves } = await renderTree();
  await startDrag('group', projects.id);
  expect(dropOn(row('group', other.id))).toBe(true);
  const folder = screen.getByTestId(`group-${other.id}`);
  expect(await within(folder).findByTestId(`group-${projects.id}`)).toBeInTheDocument();
  expect(within(folder).getByTestId(`sheet-${plan.id}`)).toBeInTheDocument();
  expect(moves).toEqual([{ item: { type: 'group', id: projects.id }, target: { group_id: other.id } }]);
});

test('a group dropped into itself or a descendant is refused without a request, and so is a drop where the item already is', async () => {
  const { projects, archive, plan, calls } = await renderTree();
  await startDrag('group', projects.id);
  expect(dropOn(row('group', projects.id))).toBe(false);
  await startDrag('group', projects.id);
  expect(dropOn(row('group', archive.id))).toBe(false);
  await startDrag('group', projects.id);
  expect(dropOn(screen.getByTestId('root-drop-zone'))).toBe(false);
  await startDrag('sheet', plan.id);
  expect(dropOn(row('group', projects.id))).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  expect(within(screen.getByTestId(`group-${projects.id}`)).getByTestId(`group-${archive.id}`)).toBeInTheDocument();
});

test('a failed move says Failed to move sheet and leaves the tree as it was', async () => {
  const { budget, other } = await renderTree((req, res) => {
    if (req.method === 'POST') apiError(res, 500, 'internal_error', 'Boom');
  });
  await startDrag('sheet', budget.id);
  dropOn(row('group', other.id));
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to move sheet');
  expect(screen.getByTestId(`sheet-${budget.id}`).parentElement).toBe(screen.getByRole('list', { name: 'Sheet tree' }));
});

describe("'Move to...' in the overflow menus, for keyboard users", () => {
  /** Opens the row's menu, then its 'Move to...' submenu, all by keyboard; returns the submenu's items. */
  async function openMoveTo(name: string) {
    await userEvent.click(screen.getByRole('button', { name: `Actions for ${name}` }));
    await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
    const trigger = screen.getByRole('menuitem', { name: 'Move to...' });
    for (let step = 0; step < 10 && !trigger.hasAttribute('data-highlighted'); step++) await userEvent.keyboard('{ArrowDown}');
    await userEvent.keyboard('{ArrowRight}');
    const submenu = await waitFor(() => {
      const menus = screen.getAllByRole('menu');
      expect(menus).toHaveLength(2);
      return menus[1];
    });
    await waitFor(() => expect(submenu).toHaveFocus());
    return submenu;
  }

  async function choose(submenu: HTMLElement, item: string) {
    const target = within(submenu).getByRole('menuitem', { name: item });
    for (let step = 0; step < 10 && !target.hasAttribute('data-highlighted'); step++) await userEvent.keyboard('{ArrowDown}');
    await userEvent.keyboard('{Enter}');
  }

  test('moves a sheet into a group, then back to root level', async () => {
    const { budget, archive, moves } = await renderTree();
    let submenu = await openMoveTo('Budget');
    // Budget is at root level already: root level is not offered.
    expect(within(submenu).getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Projects', 'Archive', 'Other']);
    await choose(submenu, 'Archive');
    expect(await within(screen.getByTestId(`group-${archive.id}`)).findByText('Budget')).toBeInTheDocument();
    expect(moves).toEqual([{ item: { type: 'sheet', id: budget.id }, target: { group_id: archive.id } }]);

    submenu = await openMoveTo('Budget');
    await choose(submenu, 'Root level');
    await waitFor(() => expect(screen.getByTestId(`sheet-${budget.id}`).parentElement).toBe(screen.getByRole('list', { name: 'Sheet tree' })));
    expect(moves[1]).toEqual({ item: { type: 'sheet', id: budget.id }, target: { group_id: null } });
  });

  test("a group's menu offers neither the group itself nor what is inside it", async () => {
    await renderTree();
    const submenu = await openMoveTo('Projects');
    expect(within(submenu).getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Other']);
  });
});

describe('Duplicate in the sheet menu', () => {
  test('posts the duplicate, announces sheet-created and shows the copy', async () => {
    const w = workspace();
    const copies: string[] = [];
    api = await startApi((req, res) => {
      if (req.method === 'GET') return json(res, 200, w.tree);
      const copy = sheet({ name: 'Budget (Copy)' });
      copies.push(req.url ?? '');
      w.tree.sheets.push(copy);
      json(res, 201, copy);
    });
    const shell = testShell(api.url);
    const created: unknown[] = [];
    shell.bus.on('sheet-created', (e) => created.push(e));
    renderInShell(<Navigator shell={shell} />);
    await screen.findByRole('list', { name: 'Sheet tree' });
    await chooseMenuItem('Actions for Budget', 'Duplicate');
    expect(await screen.findByText('Budget (Copy)')).toBeInTheDocument();
    expect(copies).toEqual([`/api/v1/sheets/${w.budget.id}/duplicate`]);
    expect(created).toEqual([{ sheetId: w.tree.sheets[1].id, name: 'Budget (Copy)' }]);
  });

  test('a failed duplicate says Failed to duplicate sheet', async () => {
    const w = workspace();
    api = await startApi((req, res) => (req.method === 'GET' ? json(res, 200, w.tree) : apiError(res, 404, 'not_found', 'Sheet not found')));
    renderInShell(<Navigator shell={testShell(api.url)} />);
    await screen.findByRole('list', { name: 'Sheet tree' });
    await chooseMenuItem('Actions for Budget', 'Duplicate');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to duplicate sheet');
  });
});
