import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_STAFF_COUNT_MESSAGE, requestProblem } from './request-problem.js';
import { readStaffSheet } from './staff-sheet.js';

const HEADERS = ['Doctor ID', 'Doctor Name', 'Skills', 'Unavailable days', 'Min shifts', 'Max shifts'];

test('a staff list: ids, names, skills, unavailable days with ranges, min and max shifts; blank rows skipped', () => {
  const outcome = readStaffSheet(HEADERS, [
    ['D1', 'Ada Lovelace', 'icu; surgery', '3, 4, 10', 2, '10'],
    [null, '', null, null, null, null],
    ['D2', 'Grace Hopper', 'icu', '5-7, 12', null, null],
    ['D3', 'Alan Turing', '', '', '', 8],
  ]);
  assert.deepEqual(outcome, {
    staff: [
      { id: 'D1', name: 'Ada Lovelace', skills: ['icu', 'surgery'], unavailable_days: [3, 4, 10], min_shifts: 2, max_shifts: 10 },
      { id: 'D2', name: 'Grace Hopper', skills: ['icu'], unavailable_days: [5, 6, 7, 12] },
      { id: 'D3', name: 'Alan Turing', max_shifts: 8 },
    ],
  });
});

test('headers in other words: ID / Name, staff_id, any case; names only get generated ids', () => {
  assert.deepEqual(readStaffSheet(['id', 'NAME'], [['7', 'Bo']]), { staff: [{ id: '7', name: 'Bo' }] });
  assert.deepEqual(readStaffSheet(['Staff_ID'], [['S-9']]), { staff: [{ id: 'S-9', name: 'S-9' }] });
  assert.deepEqual(readStaffSheet(['Name', 'Max. shifts'], [['Ann', 4], ['Ben', null]]), {
    staff: [{ id: 'S01', name: 'Ann', max_shifts: 4 }, { id: 'S02', name: 'Ben' }],
  });
});

test('no ID or name column → not a staff list', () => {
  assert.equal(readStaffSheet(['Region', 'Amount'], [['North', 3]]), null);
  assert.equal(readStaffSheet([], []), null);
});

test('a bad cell → an error naming its row (under the headers) and column', () => {
  const bad = (rows: unknown[][], days?: number) => {
    const outcome = readStaffSheet(HEADERS, rows as never, days);
    assert.ok(outcome && 'error' in outcome, JSON.stringify(outcome));
    return outcome.error;
  };
  assert.equal(bad([['D1', 'A', '', '', '', 5], [], ['D2', 'B', '', '', '', 'lots']]), 'Row 3, column "Max shifts": "lots" is not a whole number of shifts from 0 to 99');
  assert.equal(bad([['D1', 'A', '', '', '-1', '']]), 'Row 1, column "Min shifts": "-1" is not a whole number of shifts from 0 to 99');
  assert.equal(bad([['D1', 'A', '', 'Monday', '', '']]), 'Row 1, column "Unavailable days": "Monday" is not a day or a range of days (write "3, 4, 10" or "5-7")');
  assert.equal(bad([['D1', 'A', '', '20', '', '']], 14), 'Row 1, column "Unavailable days": day 20 is after the 14 days being scheduled');
  assert.equal(bad([['D1', 'A', '', '', '', ''], ['D1', 'B', '', '', '', '']]), 'Row 2, column "Doctor ID": D1 is also on row 1');
  assert.equal(bad([['', 'A', '', '', '', '']]), 'Row 1, column "Doctor ID": no ID; every person listed needs one');
  assert.equal(bad([['D1', 'A', '', '', 6, 2]]), 'Row 1, column "Min shifts": 6 is more than the 2 of "Max shifts"');
  assert.equal(bad([[null, null, null, null, null, null]]), 'the sheet has staff columns but nobody listed under them');
});

test('P3: a request without a count takes the sheet\'s staff; a sheet that is no staff list is the no-count error', () => {
  const sheet = { headers: HEADERS, rows: [['D1', 'Ada', '', '3', '', ''], ['D2', 'Grace', '', '', '', ''], ['D3', 'Alan', '', '', '', '']] };
  const outcome = requestProblem('schedule the doctors on this sheet over 14 days, 1 on day shift and 1 on night shift', sheet);
  assert.ok(outcome && 'problem' in outcome, JSON.stringify(outcome));
  assert.equal(outcome.staffFrom, 'sheet');
  assert.deepEqual(outcome.problem.staff.map((s) => [s.id, s.name, s.unavailable_days]), [['D1', 'Ada', [3]], ['D2', 'Grace', []], ['D3', 'Alan', []]]);
  assert.equal(outcome.problem.horizon.days, 14);

  const none = requestProblem('schedule the doctors on this sheet over 14 days, 1 on day shift', { headers: ['Region'], rows: [['x']] });
  assert.deepEqual(none, { error: NO_STAFF_COUNT_MESSAGE });
  const badCell = requestProblem('schedule the doctors over 14 days, 1 on day shift', { headers: HEADERS, rows: [['D1', 'Ada', '', '', '', 'x']] });
  assert.deepEqual(badCell, { error: 'The staff list on the sheet: Row 1, column "Max shifts": "x" is not a whole number of shifts from 0 to 99' });
  // A count in the request wins over the sheet.
  const counted = requestProblem('schedule 4 nurses over 7 days, 1 on night shift', sheet);
  assert.ok(counted && 'problem' in counted);
  assert.equal(counted.staffFrom, 'request');
  assert.equal(counted.problem.staff.length, 4);
});
