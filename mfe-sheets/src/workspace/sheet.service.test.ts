import { createDevShellContext, type Sheet } from '@tessera/contracts';
import { createSheetService, headersForSave } from './sheet.service.js';
import { makeSheet, send, startSheetApi, type SheetTestApi } from './testing/workspace-test-api.js';

let api: SheetTestApi;
let sheet: Sheet;
let waits: number[];

beforeEach(async () => {
  sheet = makeSheet('Budget', [['a', 1], ['b', 2]], ['Item', 'Cost']);
  api = await startSheetApi([sheet]);
  waits = [];
});
afterEach(() => api.close());

const service = () =>
  createSheetService(createDevShellContext({ apiBaseURL: api.url }).api, {
    // The §9 waits, recorded instead of waited: tests never sleep seconds.
    wait: async (ms) => {
      waits.push(ms);
    },
  });

/** Fails the first `times` requests of a path with `status`. */
function failFirst(times: number, status: number, pathEnd = '') {
  let left = times;
  api.fault = (req, res, path) => {
    if (left === 0 || !path.endsWith(pathEnd)) return false;
    left--;
    if (status === 0) {
      req.socket.destroy();
      return true;
    }
    send(res, status, { error: { code: 'x', message: `refused with ${status}` } });
    return true;
  };
}

const attempts = () => api.requests.length;

/** jsdom's Blob has no text(): read it as a page would. */
const readText = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

test('load parses the sheet with the contracts schema', async () => {
  const result = await service().load(sheet.id);
  expect(result).toEqual({ success: true, data: expect.objectContaining({ name: 'Budget', version: 1, data: [['a', 1], ['b', 2]] }) });
});

test('a 5xx is retried: 3 attempts, waiting 1 s then 2 s', async () => {
  failFirst(2, 503);
  const result = await service().load(sheet.id);
  expect(result.success).toBe(true);
  expect(attempts()).toBe(3);
  expect(waits).toEqual([1000, 2000]);
});

test('a network error is retried, and after 3 failed attempts the load fails with the §8 text', async () => {
  // jsdom reports each dropped connection on the console.
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => {});
  failFirst(3, 0);
  const result = await service().load(sheet.id);
  expect(attempts()).toBe(3);
  expect(waits).toEqual([1000, 2000]);
  expect(result).toEqual({ success: false, error: 'Failed to load sheet: Network Error' });
  quiet.mockRestore();
});

test("a 4xx is never retried: 'Failed to load sheet: {status} {statusText}'", async () => {
  const result = await service().load('00000000-0000-4000-9000-999999999999');
  expect(attempts()).toBe(1);
  expect(waits).toEqual([]);
  expect(result).toEqual({ success: false, error: 'Failed to load sheet: 404 Not Found', status: 404 });
});

test('a 500 on every attempt gives its status text', async () => {
  failFirst(3, 500);
  expect(await service().load(sheet.id)).toEqual({ success: false, error: 'Failed to load sheet: 500 Internal Server Error', status: 500 });
});

test('save sends the grid with normalised headers and the base version; the version rises', async () => {
  const result = await service().save({ id: sheet.id, headers: ['Item'], data: [['x', 1, true]], baseVersion: 1 });
  expect(result).toEqual({ success: true, data: expect.objectContaining({ version: 2 }) });
  expect(api.requests[0]).toEqual({
    method: 'PUT',
    path: `/api/v1/sheets/${sheet.id}`,
    body: { headers: ['Item', 'B', 'C'], data: [['x', 1, true]], base_version: 1 },
  });
});

test('header normalisation (§4): trimmed or padded with letters to the first row, untouched without rows', () => {
  expect(headersForSave(['Name', 'Age', 'City'], [[1, 2]])).toEqual(['Name', 'Age']);
  expect(headersForSave(['Name'], [[1, 2, 3], [1]])).toEqual(['Name', 'B', 'C']);
  expect(headersForSave([], Array.from({ length: 1 }, () => new Array(28).fill(null))).slice(24)).toEqual(['Y', 'Z', 'AA', 'AB']);
  expect(headersForSave(['Name', 'Age'], [])).toEqual(['Name', 'Age']);
});

test('a save refused as a conflict (409) comes back with its details, not retried', async () => {
  api.fault = (_req, res) => {
    send(res, 409, {
      error: {
        code: 'conflict',
        message: 'The sheet changed since the version you edited (now version 2)',
        details: { current_version: 2, conflicts: [{ row: 0, col: 1, value: 5 }] },
      },
    });
    return true;
  };
  const stale = await service().save({ id: sheet.id, headers: ['Item', 'Cost'], data: [['a', 9]], baseVersion: 1 });
  expect(api.requests).toHaveLength(1);
  expect(stale).toEqual({
    success: false,
    status: 409,
    error: 'Failed to save sheet: The sheet changed since the version you edited (now version 2)',
    conflict: { current_version: 2, conflicts: [{ row: 0, col: 1, value: 5 }] },
  });
});

test('a failed save says so with the server text', async () => {
  failFirst(1, 400, sheet.id);
  expect(await service().save({ id: sheet.id, headers: [], data: [], baseVersion: 1 })).toEqual({
    success: false,
    status: 400,
    error: 'Failed to save sheet: refused with 400',
  });
});

test('delete, and delete of a missing sheet', async () => {
  expect(await service().remove(sheet.id)).toEqual({ success: true, data: { id: sheet.id } });
  expect(api.sheets.has(sheet.id)).toBe(false);
  expect(await service().remove(sheet.id)).toEqual({ success: false, status: 404, error: 'Failed to delete sheet: Sheet not found' });
});

test("duplicate returns the copy; 'Sheet not found' on 404, else 'Failed to duplicate sheet'", async () => {
  const copy = await service().duplicate(sheet.id);
  expect(copy).toEqual({ success: true, data: expect.objectContaining({ name: 'Budget (Copy)' }) });
  expect(await service().duplicate('00000000-0000-4000-9000-999999999999')).toEqual({ success: false, status: 404, error: 'Sheet not found' });
  failFirst(3, 500);
  expect(await service().duplicate(sheet.id)).toEqual({ success: false, status: 500, error: 'Failed to duplicate sheet' });
});

test("export returns the server's bytes; 'Export failed' on a failure; 'No sheet selected for export' without a sheet", async () => {
  const result = await service().exportFile(sheet.id, 'csv');
  if (!result.success) throw new Error(result.error);
  expect(result.data.type).toBe('text/csv; charset=utf-8');
  expect(await readText(result.data)).toBe('Item,Cost\na,1\nb,2\n');
  expect(api.requests[0].path).toBe(`/api/v1/sheets/${sheet.id}/export?format=csv`);

  expect(await service().exportFile(sheet.id, 'xlsx')).toEqual({ success: false, status: 400, error: 'Export failed' });
  expect(await service().exportFile(null, 'csv')).toEqual({ success: false, error: 'No sheet selected for export' });
});
