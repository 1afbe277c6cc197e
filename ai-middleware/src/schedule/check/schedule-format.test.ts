import assert from 'node:assert/strict';
import { test } from 'node:test';
import { looksLikeSchedule as contractsLooksLikeSchedule, ScheduleFormattedSchema, ScheduleProblemSchema, type ScheduleFormatted } from '@tessera/contracts';
import { looksLikeSchedule, looksLikeSolverDebugLog } from '../../runner/grid-filters.js';
import { checkSchedule } from './schedule-checker.js';
import { formatSchedule, scheduleGrid } from './schedule-format.js';

const _ = null;
const small = ScheduleProblemSchema.parse({
  staff: [
    { id: 'A', name: 'Ana' },
    { id: 'B', name: 'Ben' },
    { id: 'C', name: 'Cy' },
  ],
  // 2026-11-28 is a Saturday.
  horizon: { days: 4, start_date: '2026-11-28' },
  shift_types: [
    { code: 'D', name: 'Day', start_hour: 7, hours: 12 },
    { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true },
  ],
  coverage: { default: { D: 1, N: 1 } },
});
const smallAssignment = [
  ['D', 'D', _, 'N'],
  ['N', _, 'D', 'D'],
  [_, 'N', 'N', _],
];
const solved = { status: 'optimal' as const, objective: 3, gap: 0, uncovered: [] };

test('formatSchedule: days with weekday and date, shift types, each person’s shifts, totals and hours', () => {
  assert.deepEqual(checkSchedule(small, smallAssignment), [], 'the sample is a valid schedule');
  const formatted = formatSchedule(small, smallAssignment, solved);
  assert.deepEqual(formatted, {
    days: [
      { day: 1, weekday: 'sat', date: '2026-11-28' },
      { day: 2, weekday: 'sun', date: '2026-11-29' },
      { day: 3, weekday: 'mon', date: '2026-11-30' },
      { day: 4, weekday: 'tue', date: '2026-12-01' },
    ],
    shift_types: [
      { code: 'D', name: 'Day', hours: 12 },
      { code: 'N', name: 'Night', hours: 12 },
    ],
    staff: [
      { id: 'A', name: 'Ana', shifts: ['D', 'D', null, 'N'], totals: { D: 2, N: 1 }, hours: 36 },
      { id: 'B', name: 'Ben', shifts: ['N', null, 'D', 'D'], totals: { D: 2, N: 1 }, hours: 36 },
      { id: 'C', name: 'Cy', shifts: [null, 'N', 'N', null], totals: { D: 0, N: 2 }, hours: 24 },
    ],
    uncovered: [],
    objective: 3,
    gap: 0,
    status: 'optimal',
  });
  assert.ok(ScheduleFormattedSchema.safeParse(formatted).success);
});

test('formatSchedule: without a start date days have weekdays from a Monday and no date; uncovered shifts and the gap are kept', () => {
  const noDate = ScheduleProblemSchema.parse({ ...small, horizon: { days: 4 } });
  const partial = [
    ['D', 'D', _, _],
    ['N', _, 'D', 'D'],
    [_, 'N', 'N', _],
  ];
  const formatted = formatSchedule(noDate, partial, { status: 'feasible', objective: 1012.5, gap: 0.04, uncovered: [{ day: 4, shift: 'N', missing: 1 }] });
  assert.deepEqual(formatted.days.map((d) => d.weekday), ['mon', 'tue', 'wed', 'thu']);
  assert.ok(formatted.days.every((d) => !('date' in d)));
  assert.deepEqual(formatted.uncovered, [{ day: 4, shift: 'N', missing: 1 }]);
  assert.equal(formatted.status, 'feasible');
  assert.equal(formatted.gap, 0.04);
  assert.deepEqual(formatted.staff[0].totals, { D: 2, N: 0 });
  assert.equal(formatted.staff[0].hours, 24);
});

test('formatSchedule: throws on an assignment that does not fit the problem', () => {
  assert.throws(() => formatSchedule(small, smallAssignment.slice(0, 2), solved), /has 2 rows for 3 staff members/);
  assert.throws(() => formatSchedule(small, [smallAssignment[0], ['N', _, 'D'], smallAssignment[2]], solved), /Ben \(B\) has 3 days for a horizon of 4/);
  assert.throws(() => formatSchedule(small, [smallAssignment[0], ['N', _, 'X', 'D'], smallAssignment[2]], solved), /unknown shift code 'X' on day 3/);
});

/** P1's shape: 12 doctors over 28 days, 2 on day shift and 1 on night shift, in a 12-day rotation. */
function p1(): ScheduleFormatted {
  const problem = ScheduleProblemSchema.parse({
    staff: Array.from({ length: 12 }, (_, i) => ({ id: `D${i + 1}`, name: `Doctor ${i + 1}` })),
    horizon: { days: 28 },
    shift_types: [
      { code: 'D', name: 'Day', start_hour: 7, hours: 12 },
      { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true },
    ],
    coverage: { default: { D: 2, N: 1 } },
    rules: { max_consecutive_days: 6, no_day_after_night: true },
  });
  // Person i works the rotation's day (d + i) mod 12: D, D, N, then off for 9 days (12 people, 3 a day).
  const rotation = ['D', 'D', 'N', _, _, _, _, _, _, _, _, _];
  const assignment = problem.staff.map((_, i) => Array.from({ length: 28 }, (_, d) => rotation[(d + i) % 12]));
  assert.deepEqual(checkSchedule(problem, assignment), [], 'the rotation is a valid P1 schedule');
  return formatSchedule(problem, assignment, solved);
}

test("scheduleGrid: the issue's grid — Doctor ID, Doctor Name, 1..28, Total D, Total N; one row per doctor", () => {
  const grid = scheduleGrid(p1());
  assert.deepEqual(grid.headers, ['Doctor ID', 'Doctor Name', ...Array.from({ length: 28 }, (_, d) => String(d + 1)), 'Total D', 'Total N']);
  assert.equal(grid.rows.length, 12);
  for (const row of grid.rows) assert.equal(row.length, grid.headers.length);
  // Doctor 1 works D D N from day 1 and again every 12 days: days 1, 2, 13, 14, 25, 26 and nights 3, 15, 27.
  assert.deepEqual(grid.rows[0].slice(0, 6), ['D1', 'Doctor 1', 'D', 'D', 'N', null]);
  assert.deepEqual(grid.rows[0].slice(-2), [6, 3]);
  // Totals per shift type: every day 2 day shifts and 1 night over 28 days.
  const totalD = grid.rows.reduce((n, row) => n + (row[30] as number), 0);
  const totalN = grid.rows.reduce((n, row) => n + (row[31] as number), 0);
  assert.deepEqual([totalD, totalN], [56, 28]);
  // A day off is the sheet's empty cell (null), and a row's non-empty day cells are its total.
  for (const row of grid.rows) {
    const cells = row.slice(2, 30);
    assert.ok(cells.every((c) => c === null || c === 'D' || c === 'N'));
    assert.equal(cells.filter((c) => c !== null).length, (row[30] as number) + (row[31] as number));
  }
});

test('scheduleGrid: passes the schedule-shape rules of spec 02 §5 and is not taken for a solver log', () => {
  const grid = scheduleGrid(p1());
  assert.equal(looksLikeSchedule(grid), true);
  assert.equal(contractsLooksLikeSchedule(grid.headers), true);
  assert.equal(looksLikeSolverDebugLog(grid), false);
  // The smallest grid the rules allow: 3 days.
  const three = formatSchedule(ScheduleProblemSchema.parse({ ...small, horizon: { days: 3 } }), smallAssignment.map((r) => r.slice(0, 3)), solved);
  assert.equal(looksLikeSchedule(scheduleGrid(three)), true);
});

test('scheduleGrid: throws, saying why, on a schedule it cannot grid', () => {
  const good = formatSchedule(small, smallAssignment, solved);
  assert.throws(() => scheduleGrid({ ...good, staff: [] }), /^Error: Cannot make a schedule grid: the schedule has no staff$/);
  assert.throws(
    () => scheduleGrid({ ...good, days: good.days.slice(0, 2), staff: good.staff.map((m) => ({ ...m, shifts: m.shifts.slice(0, 2) })) }),
    /it has 2 day\(s\); a schedule grid needs at least 3 day columns/,
  );
  assert.throws(() => scheduleGrid({ ...good, staff: [{ ...good.staff[0], shifts: ['D', 'D', null] }] }), /Ana \(A\) has 3 days; the schedule has 4/);
  assert.throws(() => scheduleGrid({ ...good, staff: [{ ...good.staff[0], shifts: ['D', 'D', null, 'E'] }] }), /unknown shift code 'E' on day 4/);
  assert.throws(() => scheduleGrid({ ...good, days: [good.days[1], good.days[0], ...good.days.slice(2)] }), /day 1 is numbered 2/);
  assert.throws(() => scheduleGrid({ ...good, shift_types: [] }), /no shift types/);
  assert.throws(() => scheduleGrid({ ...good, status: 'solved' } as unknown as ScheduleFormatted), /the formatted schedule is not valid/);
});
