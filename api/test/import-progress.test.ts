// Issue 23 (import): the server's phase of an import is shown to the importing user (rows stored
// so far, on their workspace socket), to no one else; a large import stores exactly its CSV.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ImportResultSchema, SheetSchema, type WorkspaceServerFrame } from '@tessera/contracts';
import { WorkspaceClient } from './live-client.js';
import { apiClient } from './support/api-client.js';
import { closeLiveStack, type LiveStack, startLiveStack } from './support/live-stack.js';

const ROWS = 120_000;

/** A 120,000 × 10 CSV with quoted fields (commas and doubled quotes inside), blank cells and non-ASCII text. */
function bigCsv(): { text: string; rows: string[][] } {
  const rows: string[][] = [];
  for (let r = 0; r < ROWS; r++) {
    rows.push([`${r}`, `Name ${r}`, `Stadt ${r % 97} ü`, (r * 1.37).toFixed(2), r % 7 === 0 ? '' : `C${r % 313}`, `note, ${r}`, `say "${r}"`, `${r % 50}`, 'x', (r * 3.1).toFixed(2)]);
  }
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const header = ['id', 'name', 'city', 'amount', 'code', 'note', 'quote', 'qty', 'flag', 'total'];
  return { text: `${[header, ...rows].map((row) => row.map(quote).join(',')).join('\r\n')}\r\n`, rows };
}

const progressOf = (frames: WorkspaceServerFrame[]) => frames.flatMap((f) => (f.type === 'import_progress' ? [f.data] : []));

describe('import progress on the workspace socket', () => {
  let { t, base, admin, bob, api } = {} as LiveStack;
  const open: { close(): Promise<unknown> }[] = [];
  before(async () => ({ t, base, admin, bob, api } = await startLiveStack()));
  after(() => closeLiveStack(t, open));

  it("tells the importer's sockets the rows stored so far, up to all of them, and tells no one else; the sheet holds the CSV's cells", async () => {
    const mine = await WorkspaceClient.join(base, admin.accessToken, { label: 'importer' });
    const theirs = await WorkspaceClient.join(base, bob.accessToken, { label: 'other user' });
    open.push(mine, theirs);
    const { text, rows } = bigCsv();
    const id = crypto.randomUUID();
    const res = await api.upload(`/api/v1/import?progress=${id}`, { filename: 'Big.csv', content: text });
    assert.equal(res.statusCode, 201, res.body);
    const result = ImportResultSchema.parse(res.json());

    await mine.waitFor((frames) => progressOf(frames).find((p) => p.rows_stored === ROWS), 'the last progress frame');
    const seen = progressOf(mine.frames);
    assert.ok(seen.length >= 2, `${seen.length} frames`);
    for (const p of seen) assert.deepEqual([p.import_id, p.rows_total], [id, ROWS]);
    assert.equal(seen[0].rows_stored, 0);
    assert.deepEqual(
      seen.map((p) => p.rows_stored),
      [...seen.map((p) => p.rows_stored)].sort((a, b) => a - b),
      'rows stored only grow',
    );
    // Bob's socket got the sheet's announcement (filtered by access) but never the progress.
    await theirs.waitFor((frames) => frames.find((f) => f.type === 'sheet_deleted' || f.type === 'sheet_created'), 'the new sheet told');
    assert.deepEqual(progressOf(theirs.frames), []);

    const sheet = SheetSchema.parse((await api.get(`/api/v1/sheets/${result.sheets[0].id}`)).json());
    assert.deepEqual(sheet.metadata.headers, ['id', 'name', 'city', 'amount', 'code', 'note', 'quote', 'qty', 'flag', 'total']);
    assert.equal(sheet.data.length, ROWS);
    assert.deepEqual(sheet.data, rows);
  });

  it("without a progress id nothing is told; another user's import progress reaches only their sockets", async () => {
    const mine = await WorkspaceClient.join(base, admin.accessToken, { label: 'importer' });
    const theirs = await WorkspaceClient.join(base, bob.accessToken, { label: 'other user' });
    open.push(mine, theirs);
    const plain = await api.upload('/api/v1/import', { filename: 'plain.csv', content: 'a,b\n1,2\n' });
    assert.equal(plain.statusCode, 201, plain.body);
    const id = crypto.randomUUID();
    const bobs = await apiClient(t.app, bob.accessToken).upload(`/api/v1/import?progress=${id}`, { filename: 'bob.csv', content: 'a,b\n1,2\n3,4\n' });
    assert.equal(bobs.statusCode, 201, bobs.body);
    await theirs.waitFor((frames) => progressOf(frames).find((p) => p.rows_stored === 2), 'the last progress frame');
    assert.deepEqual(progressOf(theirs.frames).at(-1), { import_id: id, rows_stored: 2, rows_total: 2 });
    // My socket saw Bob's new sheet go by (as gone: I may not see it) but none of his progress.
    await mine.waitFor((frames) => (frames.filter((f) => f.type === 'sheet_deleted' || f.type === 'sheet_created').length >= 2 ? true : undefined), 'both new sheets told');
    assert.deepEqual(progressOf(mine.frames), []);
  });
});
