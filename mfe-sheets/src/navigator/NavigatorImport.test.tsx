import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IMPORT_MAX_BYTES, type GroupTree, type ImportResult } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import type { ServerResponse } from 'node:http';
import Navigator from './Navigator.js';
import { apiError, group, json, sheet, startApi, testShell, type TestApi } from './navigator-test-api.js';
import { EMPTY_TREE, useSheetTree } from './sheet-tree.store.js';

let api: TestApi | undefined;
afterEach(async () => {
  useSheetTree.setState({ status: 'loading', tree: EMPTY_TREE });
  const open = api;
  api = undefined;
  await open?.close();
});

type ImportHandler = (res: ServerResponse, body: string, url: URL) => void;

/** An api with one root sheet whose POST /api/v1/import is answered by `onImport` (given the multipart body as text). */
async function renderWithImport(tree: GroupTree, onImport: ImportHandler) {
  api = await startApi((req, res, body) => {
    if (req.method === 'GET' && req.url === '/api/v1/groups/tree') return json(res, 200, tree);
    const url = new URL(req.url ?? '/', 'http://api');
    if (req.method === 'POST' && url.pathname === '/api/v1/import') return onImport(res, String(body), url);
    apiError(res, 404, 'not_found', 'Not found');
  });
  const shell = testShell(api.url);
  const created: unknown[] = [];
  shell.bus.on('sheet-created', (e) => created.push(e));
  renderInShell(<Navigator shell={shell} />);
  await screen.findByTestId('navigator-footer');
  return { calls: api.calls, created, bus: shell.bus };
}

const csv = (name: string, text = 'a,b\n1,2\n') => new File([text], name, { type: 'text/csv' });
const input = () => screen.getByLabelText('Import CSV / Excel') as HTMLInputElement;
/** The value of a text field of a multipart body. */
const field = (body: string, name: string) => new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(body)?.[1];

test("the Import button's tooltip is 'Import CSV / Excel' and its file chooser takes .csv, .xlsx and .xls", async () => {
  await renderWithImport({ groups: [], sheets: [sheet({ name: 'Existing' })] }, () => {});
  const button = screen.getByRole('button', { name: 'Import' });
  await userEvent.hover(button);
  expect(await screen.findByRole('tooltip')).toHaveTextContent('Import CSV / Excel');
  expect(input()).toHaveAttribute('type', 'file');
  expect(input()).toHaveAttribute('accept', '.csv,.xlsx,.xls');
});

test('a CSV is uploaded with its name, shows its progress until the answer, then the new sheet and the footer counts', async () => {
  const tree: GroupTree = { groups: [], sheets: [sheet({ name: 'Existing' })] };
  let body = '';
  let reply: ServerResponse | undefined;
  const { calls, created } = await renderWithImport(tree, (res, text) => {
    body = text;
    reply = res;
  });
  await userEvent.upload(input(), csv('Sales 2026.csv', 'region,total\nNorth,12\n'));
  // Until the server answers, the upload's bar shows and the button waits.
  expect(await screen.findByRole('progressbar')).toBeInTheDocument();
  expect(screen.getByText('Uploading...')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  await waitFor(() => expect(reply).toBeDefined());
  expect(field(body, 'name')).toBe('Sales 2026');
  expect(body).toContain('filename="Sales 2026.csv"');
  expect(body).toContain('region,total\nNorth,12\n');

  const made = sheet({ name: 'Sales 2026' }, 1, 2);
  tree.sheets.push(made);
  const result: ImportResult = { updated_sheets: 1, new_categories: 0, sheets: [{ id: made.id, name: made.name }], group_id: null };
  json(reply as ServerResponse, 201, result);
  expect(await screen.findByText('Sales 2026')).toBeInTheDocument();
  expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled();
  const footer = screen.getByTestId('navigator-footer');
  expect(footer).toHaveTextContent('2 sheets • 0 groups');
  expect(within(footer).getByTestId('import-counts')).toHaveTextContent('Updated sheets: 1 • New categories: 0');
  expect(created).toEqual([{ sheetId: made.id, name: 'Sales 2026' }]);
  expect(calls.filter((c) => c.startsWith('GET'))).toHaveLength(2);
});

test("while the server stores the rows, its progress for this import (by the id sent with it) shows as 'Storing rows: n of m'", async () => {
  const tree: GroupTree = { groups: [], sheets: [] };
  let reply: ServerResponse | undefined;
  let progressId: string | null = null;
  const { bus } = await renderWithImport(tree, (res, _text, url) => {
    progressId = url.searchParams.get('progress');
    reply = res;
  });
  await userEvent.upload(input(), csv('Big.csv', 'a,b\n1,2\n'));
  await waitFor(() => expect(reply).toBeDefined());
  expect(progressId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // Another import's progress (another tab of the same user) is not this one's.
  act(() => bus.emit('import-progress', { importId: '00000000-0000-4000-8000-000000000000', rowsStored: 10, rowsTotal: 20 }));
  expect(screen.queryByText(/Storing rows/)).not.toBeInTheDocument();
  act(() => bus.emit('import-progress', { importId: progressId!, rowsStored: 1500, rowsTotal: 4000 }));
  expect(await screen.findByText('Storing rows: 1,500 of 4,000')).toBeInTheDocument();
  expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '38');
  act(() => bus.emit('import-progress', { importId: progressId!, rowsStored: 4000, rowsTotal: 4000 }));
  expect(await screen.findByText('Storing rows: 4,000 of 4,000')).toBeInTheDocument();

  const made = sheet({ name: 'Big' }, 4000, 2);
  tree.sheets.push(made);
  json(reply as ServerResponse, 201, { updated_sheets: 1, new_categories: 0, sheets: [{ id: made.id, name: made.name }], group_id: null });
  expect(await screen.findByText('Big')).toBeInTheDocument();
  expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  // After the answer, a late frame changes nothing.
  act(() => bus.emit('import-progress', { importId: progressId!, rowsStored: 4000, rowsTotal: 4000 }));
  expect(screen.queryByText(/Storing rows/)).not.toBeInTheDocument();
});

test('a workbook of two worksheets: both sheets announced, one reload, a new category counted', async () => {
  const tree: GroupTree = { groups: [], sheets: [] };
  const { calls, created } = await renderWithImport(tree, (res, text) => {
    const g = group('Quarterly');
    const q1 = sheet({ name: 'Q1', group_id: g.id });
    const q2 = sheet({ name: 'Q2', group_id: g.id });
    tree.groups.push({ group: g, children: [], sheets: [q1, q2] });
    expect(field(text, 'name')).toBe('Quarterly');
    const result: ImportResult = { updated_sheets: 2, new_categories: 1, sheets: [q1, q2].map(({ id, name }) => ({ id, name })), group_id: g.id };
    json(res, 201, result);
  });
  await userEvent.upload(input(), new File(['PK'], 'Quarterly.xlsx'));
  expect(await screen.findByText('Q2')).toBeInTheDocument();
  expect(screen.getByTestId('import-counts')).toHaveTextContent('Updated sheets: 2 • New categories: 1');
  expect(screen.getByTestId('navigator-footer')).toHaveTextContent('2 sheets • 1 groups');
  expect(created).toHaveLength(2);
  expect(calls.filter((c) => c.startsWith('GET'))).toHaveLength(2);
});

test("a refused file shows 'Import failed: {server text}' in an alert that can be dismissed", async () => {
  await renderWithImport({ groups: [], sheets: [sheet({ name: 'Existing' })] }, (res) =>
    apiError(res, 400, 'bad_request', 'The file is empty'),
  );
  await userEvent.upload(input(), csv('empty.csv', ''));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Import failed: The file is empty');
  expect(screen.queryByTestId('import-counts')).not.toBeInTheDocument();
  await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test("an import cut off before any answer shows 'Import error: ' and the message", async () => {
  let n = 0;
  await renderWithImport({ groups: [], sheets: [sheet({ name: 'Existing' })] }, (res) => {
    n += 1;
    res.socket?.destroy();
  });
  await userEvent.upload(input(), csv('data.csv'));
  expect(await screen.findByRole('alert')).toHaveTextContent('Import error: Network Error');
  expect(n).toBe(1);
});

test('a file over 50 MB is refused before it is sent', async () => {
  const { calls } = await renderWithImport({ groups: [], sheets: [sheet({ name: 'Existing' })] }, () => {});
  const big = new File([new Uint8Array(IMPORT_MAX_BYTES + 1)], 'big.csv');
  fireEvent.change(input(), { target: { files: [big] } });
  expect(await screen.findByRole('alert')).toHaveTextContent('Import failed: File is too large (limit 50 MB)');
  expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
});
