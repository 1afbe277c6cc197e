import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SCHEDULE_PROMPT, extractScheduleJson, parseScheduleJson, scheduleFixRequest } from './schedule-prompt.js';

const PROBLEM = {
  staff: [{ id: 'A', name: 'Ann' }],
  horizon: { days: 7 },
  shift_types: [{ code: 'D', name: 'Day', start_hour: 7, hours: 8 }],
  coverage: { default: { D: 1 } },
};
const NO_SHEET = { headers: [], rows: [] };

test('the prompt holds the JSON Schema of the problem and the fence to answer in', () => {
  assert.match(SCHEDULE_PROMPT, /```schedule-json/);
  const schema = /\n(\{"\$schema".*\})\n/.exec(SCHEDULE_PROMPT);
  assert.ok(schema, 'a JSON Schema on its own line');
  const parsed = JSON.parse(schema[1]!) as { properties: Record<string, unknown>; required: string[] };
  assert.deepEqual(Object.keys(parsed.properties).sort(), ['coverage', 'horizon', 'objective', 'rules', 'shift_types', 'staff']);
  assert.deepEqual(parsed.required.sort(), ['coverage', 'horizon', 'shift_types', 'staff']);
});

test('a schedule-json block is found whatever surrounds it; a python block or plain text is not one', () => {
  assert.equal(extractScheduleJson('Sure.\n```schedule-json\n{"a": 1}\n```\nDone.'), '{"a": 1}');
  assert.equal(extractScheduleJson('```Schedule-JSON\n{"a": 1}'), '{"a": 1}', 'an unclosed block at the end of the reply');
  assert.equal(extractScheduleJson('```python\nresult = 1\n```'), null);
  assert.equal(extractScheduleJson('{"a": 1}'), null);
});

test('parsing: a valid problem gets its defaults; bad JSON and schema issues are told with their paths', () => {
  const ok = parseScheduleJson(JSON.stringify(PROBLEM), NO_SHEET);
  assert.ok('problem' in ok);
  assert.equal(ok.problem.rules.no_day_after_night, true);
  assert.deepEqual(ok.problem.staff[0]!.unavailable_days, []);

  const badJson = parseScheduleJson('{"staff": ', NO_SHEET);
  assert.ok('error' in badJson);
  assert.match(badJson.error, /^The schedule-json block is not valid JSON: /);

  const issues = parseScheduleJson(JSON.stringify({ ...PROBLEM, coverage: { default: { N: 1 } }, horizon: { days: 0 } }), NO_SHEET);
  assert.ok('error' in issues);
  assert.match(issues.error, /^The schedule-json problem does not follow the schema:\n/);
  assert.match(issues.error, /\n- horizon\.days: /);
  assert.match(issues.error, /\n- coverage\.default\.N: unknown shift code N; the shift types are D/);
  assert.match(scheduleFixRequest(issues.error).content, /Reply with the whole corrected JSON object in one ```schedule-json code block/);
});

test('"staff" left out: the staff list on the sheet, or its unreadable cell; no staff list → the schema\'s own issue', () => {
  const { staff: _staff, ...withoutStaff } = PROBLEM;
  const sheet = { headers: ['ID', 'Name', 'Unavailable days'], rows: [['1', 'Bo', '2'], ['2', 'Cy', '']] };
  const fromSheet = parseScheduleJson(JSON.stringify(withoutStaff), sheet);
  assert.ok('problem' in fromSheet);
  assert.deepEqual(fromSheet.problem.staff.map((s) => [s.id, s.name, s.unavailable_days]), [['1', 'Bo', [2]], ['2', 'Cy', []]]);

  const badCell = parseScheduleJson(JSON.stringify({ ...withoutStaff, staff: [] }), { ...sheet, rows: [['1', 'Bo', '9']] });
  assert.deepEqual(badCell, {
    error: '"staff" was left out, and the staff list on the sheet cannot be read: Row 1, column "Unavailable days": day 9 is after the 7 days being scheduled',
  });

  const noList = parseScheduleJson(JSON.stringify(withoutStaff), { headers: ['Region'], rows: [['x']] });
  assert.ok('error' in noList);
  assert.match(noList.error, /\n- staff: /);
});
