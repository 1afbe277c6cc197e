import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScheduleProblemSchema } from '@tessera/contracts';
import type { ScheduleRequest } from './schedule-request.js';
import { parseScheduleRequest } from './schedule-request.parser.js';
import { buildScheduleProblem, generatedStaff } from './schedule-problem.builder.js';

function request(text: string): ScheduleRequest {
  const outcome = parseScheduleRequest(text);
  assert.ok(outcome && 'request' in outcome, `${text} → ${JSON.stringify(outcome)}`);
  return outcome.request;
}

function error(text: string): string {
  const outcome = parseScheduleRequest(text);
  assert.ok(outcome && 'error' in outcome, `${text} → ${JSON.stringify(outcome)}`);
  return outcome.error;
}

test('P1: 12 doctors, 28 days, 2 on day and 1 on night, 6 days in a row → D 07:00 and N 19:00, 12 h each', () => {
  const p1 = request('schedule 12 doctors over 28 days, 2 on day shift and 1 on night shift, at most 6 days in a row');
  assert.deepEqual(p1, {
    staffCount: 12,
    noun: 'doctor',
    days: 28,
    coverage: { D: 2, N: 1 },
    maxPerShift: {},
    maxConsecutiveDays: 6,
    weekendFairness: false,
    noDayAfterNight: true,
  });
  const problem = ScheduleProblemSchema.parse(buildScheduleProblem(p1, generatedStaff(12, 'doctor')));
  assert.equal(problem.staff.length, 12);
  assert.deepEqual(problem.staff[0], { id: 'DR01', name: 'Doctor 1', skills: [], unavailable_days: [], preferences: [] });
  assert.equal(problem.staff[11]!.id, 'DR12');
  assert.deepEqual(
    problem.shift_types.map((s) => [s.code, s.start_hour, s.hours, s.night]),
    [['D', 7, 12, false], ['N', 19, 12, true]],
  );
  assert.deepEqual(problem.coverage, { default: { D: 2, N: 1 } });
  assert.deepEqual(problem.rules, { max_consecutive_days: 6, no_day_after_night: true, min_rest_hours: 0, weekend_fairness: false });
  assert.deepEqual(problem.horizon, { days: 28 });
});

test('P2: 3 doctors, only nights, at most 8 nights each → one N shift type with max_per_staff 8', () => {
  const p2 = request('schedule 3 doctors over 28 days, 2 on night shift, at most 8 nights each');
  assert.equal(p2.staffCount, 3);
  assert.deepEqual(p2.coverage, { N: 2 });
  assert.deepEqual(p2.maxPerShift, { N: 8 });
  const problem = ScheduleProblemSchema.parse(buildScheduleProblem(p2, generatedStaff(3, 'doctor')));
  assert.deepEqual(problem.shift_types, [{ code: 'N', name: 'Night', start_hour: 23, hours: 8, night: true, max_per_staff: 8 }]);
  assert.deepEqual(problem.coverage.default, { N: 2 });
});

test('P3: no count → the staff on the sheet', () => {
  const p3 = request('schedule the doctors on this sheet over 14 days, 1 on day shift and 1 on night shift');
  assert.equal(p3.staffCount, null);
  assert.equal(p3.days, 14);
  assert.deepEqual(p3.coverage, { D: 1, N: 1 });
});

test('staff nouns, counts in words, and the ids and names generated from them', () => {
  const cases: Array<[string, number, ScheduleRequest['noun']]> = [
    ['schedule 10 nurses for 2 weeks, 2 on day shift', 10, 'nurse'],
    ['Schedule twelve staff over 7 days with 1 on night shift', 12, 'staff'],
    ['roster 8 staff members over 14 days, 1 on the day shift', 8, 'staff'],
    ['make a rota for 6 people over 10 days, 1 on nights', 6, 'person'],
    ['plan a roster: 7 workers, 14 days, 2 on day shift', 7, 'worker'],
    ['schedule 20 employees for 4 weeks: 3 on day shift, 2 on evening shift, 1 on night shift', 20, 'employee'],
    ['Please schedule 5 junior doctors over 21 days, 1 on day shift.', 5, 'doctor'],
  ];
  for (const [text, count, noun] of cases) {
    const parsed = request(text);
    assert.equal(parsed.staffCount, count, text);
    assert.equal(parsed.noun, noun, text);
  }
  assert.deepEqual(generatedStaff(3, 'nurse').map((s) => [s.id, s.name]), [['NU01', 'Nurse 1'], ['NU02', 'Nurse 2'], ['NU03', 'Nurse 3']]);
  assert.equal(generatedStaff(120, 'employee').at(-1)!.id, 'EM120');
  assert.equal(generatedStaff(120, 'employee')[0]!.id, 'EM001');
});

test('horizons: days, weeks, n-day, a week, a fortnight; start dates', () => {
  const cases: Array<[string, number]> = [
    ['schedule 4 doctors over 28 days, 1 on day shift', 28],
    ['schedule 4 doctors for 2 weeks, 1 on day shift', 14],
    ['schedule 4 doctors for two weeks, 1 on day shift', 14],
    ['a 21-day schedule for 4 doctors, 1 on day shift', 21],
    ['schedule 4 doctors for a week, 1 on day shift', 7],
    ['schedule 4 doctors for a fortnight, 1 on day shift', 14],
    ['schedule 4 doctors, 1 on day shift, for 1 week', 7],
  ];
  for (const [text, days] of cases) assert.equal(request(text).days, days, text);
  assert.equal(request('schedule 4 doctors over 28 days starting 2026-12-01, 1 on day shift').startDate, '2026-12-01');
  assert.equal(request('schedule 4 doctors from 2027-01-04 for 2 weeks, 1 on night shift').startDate, '2027-01-04');
  assert.match(error('schedule 4 doctors over 28 days starting 2026-02-30, 1 on day shift'), /2026-02-30 is not a date/);
});

test('shift counts: the three shift types and their hours; phrasings of coverage', () => {
  const three = request('schedule 9 nurses over 14 days, 2 on day shift, 2 on evening shift and 1 on night shift');
  assert.deepEqual(three.coverage, { D: 2, E: 2, N: 1 });
  const problem = ScheduleProblemSchema.parse(buildScheduleProblem(three, generatedStaff(9, 'nurse')));
  assert.deepEqual(
    problem.shift_types.map((s) => [s.code, s.start_hour, s.hours, s.night]),
    [['D', 7, 8, false], ['E', 15, 8, false], ['N', 23, 8, true]],
  );
  const phrasings: Array<[string, Record<string, number>]> = [
    ['schedule 6 doctors over 7 days, 2 doctors on the day shift and 1 doctor on the night shift', { D: 2, N: 1 }],
    ['schedule 6 doctors over 7 days with 2 day shifts and 1 night shift', { D: 2, N: 1 }],
    ['schedule 6 doctors over 7 days; day shift: 2, night shift: 1', { D: 2, N: 1 }],
    ['schedule 6 doctors over 7 days, evening shift needs 2', { E: 2 }],
    ['schedule 6 doctors over 7 days, 1 on nights', { N: 1 }],
    ['schedule 6 doctors over 7 days, 1 per night shift', { N: 1 }],
    ['schedule 6 doctors over 7 days, 2 on day-shift', { D: 2 }],
  ];
  for (const [text, coverage] of phrasings) assert.deepEqual(request(text).coverage, coverage, text);
  // Day only: an 8-hour day shift.
  const dayOnly = ScheduleProblemSchema.parse(buildScheduleProblem(request('schedule 3 doctors over 7 days, 1 on day shift'), generatedStaff(3, 'doctor')));
  assert.deepEqual(dayOnly.shift_types.map((s) => [s.code, s.hours]), [['D', 8]]);
});

test('rules: days in a row, shifts per type and in all, rest, weekend fairness, day after night', () => {
  const rules = request(
    'schedule 10 doctors over 28 days, 2 on day shift and 1 on night shift, no more than 5 consecutive days, ' +
      'at most 7 night shifts per doctor, at most 20 shifts each, at least 10 shifts each, at least 11 hours of rest, fair weekends',
  );
  assert.equal(rules.maxConsecutiveDays, 5);
  assert.deepEqual(rules.maxPerShift, { N: 7 });
  assert.equal(rules.maxShifts, 20);
  assert.equal(rules.minShifts, 10);
  assert.equal(rules.minRestHours, 11);
  assert.equal(rules.weekendFairness, true);
  assert.deepEqual(rules.coverage, { D: 2, N: 1 });
  assert.equal(rules.days, 28);

  assert.equal(request('schedule 4 doctors over 7 days, 1 on day shift, max 3 consecutive working days').maxConsecutiveDays, 3);
  assert.equal(request('schedule 4 doctors over 7 days, 1 on day shift, maximum consecutive days: 4').maxConsecutiveDays, 4);
  assert.equal(request('schedule 4 doctors over 7 days, 1 on day shift, at most six days in a row').maxConsecutiveDays, 6);
  assert.equal(request('schedule 4 doctors over 7 days, 1 on day shift, no minimum rest').minRestHours, 0);
  assert.equal(request('schedule 4 doctors over 7 days, 1 on day shift, minimum rest 12 hours').minRestHours, 12);
  assert.equal(request('schedule 4 doctors over 14 days, 1 on day shift, weekend fairness').weekendFairness, true);
  assert.equal(request('schedule 4 doctors over 14 days, 1 on day shift, share weekends fairly').weekendFairness, true);
  assert.deepEqual(request('schedule 4 doctors over 14 days, 1 on day shift, at most 6 day shifts each').maxPerShift, { D: 6 });
  assert.equal(request('schedule 4 doctors over 14 days, 1 on day shift and 1 on night shift, allow day shift after night shift').noDayAfterNight, false);

  const built = ScheduleProblemSchema.parse(buildScheduleProblem(rules, generatedStaff(10, 'doctor')));
  assert.deepEqual(built.rules, { max_consecutive_days: 5, no_day_after_night: true, min_rest_hours: 11, weekend_fairness: true });
  assert.equal(built.staff[0]!.max_shifts, 20);
  assert.equal(built.staff[0]!.min_shifts, 10);
  assert.equal(built.shift_types.find((s) => s.code === 'N')!.max_per_staff, 7);
});

test('not a schedule request → null (left to the sheet requests)', () => {
  for (const text of ['sort by Amount', 'total of Amount by Region', 'sort by Schedule', 'describe', '', 'what is the schedule column about', 'plan 12 staff over 28 days, 1 on day shift']) {
    assert.equal(parseScheduleRequest(text), null, text);
  }
});

test('a schedule request missing what a solve needs → an error saying what to add', () => {
  assert.match(error('schedule 12 doctors, 2 on day shift'), /^no horizon: .*"over 28 days"/);
  assert.match(error('schedule 12 doctors over 28 days'), /^no coverage: .*"2 on day shift and 1 on night shift"/);
  assert.match(error('schedule 400 doctors over 28 days, 1 on day shift'), /at most 300 staff/);
  assert.match(error('schedule 4 doctors over 200 days, 1 on day shift'), /at most 99 days/);
  assert.match(error('schedule 0 doctors over 7 days, 1 on day shift'), /at least 1/);
  assert.match(error('schedule 4 doctors over 7 days, 1 on day shift, at least 9 shifts each, at most 5 shifts each'), /at least 9 shifts each is more than/);
});
