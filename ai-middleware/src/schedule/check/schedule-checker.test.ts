import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScheduleProblemSchema, type ScheduleProblem, type ScheduleProblemInput } from '@tessera/contracts';
import { checkSchedule, SCHEDULE_RULES, type ScheduleRule, type ScheduleViolation } from './schedule-checker.js';

// A week (day 1 is a Monday, so days 6 and 7 are the weekend) with a day and a night shift, one
// doctor on each, and every rule on; `week` is a schedule that keeps all of them, by hand:
// D 07:00–19:00 then D again rests 12 h; N 19:00–07:00 then N again rests 12 h.
const base: ScheduleProblemInput = {
  staff: [
    { id: 'A', name: 'Ana', unavailable_days: [7], min_shifts: 2, max_shifts: 4 },
    { id: 'B', name: 'Ben', min_shifts: 2, max_shifts: 4 },
    { id: 'C', name: 'Cy', skills: ['nights'], unavailable_days: [5], min_shifts: 2, max_shifts: 4 },
    { id: 'E', name: 'Eve', skills: ['nights'], min_shifts: 2, max_shifts: 4 },
  ],
  horizon: { days: 7 },
  shift_types: [
    { code: 'D', name: 'Day', start_hour: 7, hours: 12 },
    { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true, max_per_staff: 4, skill: 'nights' },
  ],
  coverage: { default: { D: 1, N: 1 } },
  rules: { max_consecutive_days: 4, no_day_after_night: true, min_rest_hours: 12, weekend_fairness: true },
};
const _ = null;
const week = (): (string | null)[][] => [
  ['D', 'D', 'D', _, _, _, _],
  [_, _, _, 'D', 'D', 'D', 'D'],
  ['N', 'N', 'N', _, _, _, _],
  [_, _, _, 'N', 'N', 'N', 'N'],
];

/** The base problem with changes, parsed as the solver would get it. */
function problem(change: (p: ScheduleProblemInput) => void = () => {}): ScheduleProblem {
  const input = structuredClone(base);
  change(input);
  return ScheduleProblemSchema.parse(input);
}

function edit(assignment: (string | null)[][], staff: number, day: number, code: string | null): (string | null)[][] {
  assignment[staff][day - 1] = code;
  return assignment;
}

const rules = (violations: ScheduleViolation[]) => [...new Set(violations.map((v) => v.rule))].sort();
const caught = new Set<ScheduleRule>();

/** The valid case passes; the broken one gives exactly `rule`, with messages matching `messages`. */
function expectCaught(rule: ScheduleRule, valid: [ScheduleProblem, unknown[][]], broken: [ScheduleProblem, unknown[][]], messages: (string | RegExp)[]) {
  assert.deepEqual(checkSchedule(valid[0], valid[1] as (string | null)[][]), [], 'the valid schedule passes');
  const violations = checkSchedule(broken[0], broken[1] as (string | null)[][]);
  assert.deepEqual(rules(violations), [rule], JSON.stringify(violations));
  assert.equal(violations.length, messages.length, JSON.stringify(violations));
  messages.forEach((m, i) => (typeof m === 'string' ? assert.equal(violations[i].message, m) : assert.match(violations[i].message, m)));
  caught.add(rule);
}

test('the hand-made week keeps every rule', () => {
  assert.deepEqual(checkSchedule(problem(), week()), []);
});

test('coverage: one too few on a shift is caught, naming the day, the shift and the numbers', () => {
  expectCaught('coverage', [problem(), week()], [problem(), edit(week(), 2, 1, null)], ['Day 1 (Mon), shift N (Night): 0 doctors of the 1 needed']);
});

test('coverage: one too many is caught, naming who', () => {
  expectCaught('coverage', [problem(), week()], [problem(), edit(week(), 0, 4, 'D')], ['Day 4 (Thu), shift D (Day): 2 doctors (A, B); exactly 1 needed']);
});

test('coverage follows by_weekday and by_day overrides (requiredHeadcount)', () => {
  const p = problem((x) => {
    x.coverage = { default: { D: 1, N: 1 }, by_weekday: { sun: { D: 2 } }, by_day: { '3': { N: 0 } } };
  });
  const v = checkSchedule(p, week());
  assert.deepEqual(
    v.map((x) => x.message),
    ['Day 3 (Wed), shift N (Night): 1 doctor (C); exactly 0 needed', 'Day 7 (Sun), shift D (Day): 1 doctor of the 2 needed'],
  );
});

test('coverageSoft: fewer than required passes (the caller reports it), more never does', () => {
  const under = edit(week(), 2, 1, null);
  assert.deepEqual(checkSchedule(problem(), under, { coverageSoft: true }), []);
  const over = edit(week(), 0, 4, 'D');
  assert.deepEqual(checkSchedule(problem(), over, { coverageSoft: true }), [
    { rule: 'coverage', message: 'Day 4 (Thu), shift D (Day): 2 doctors (A, B); at most 1 needed' },
  ]);
});

test('unavailable days: working one is caught', () => {
  const p = problem((x) => {
    x.staff[0].unavailable_days = [3];
  });
  expectCaught('unavailable_days', [problem(), week()], [p, week()], ['Doctor Ana (A) works on day 3, marked unavailable']);
});

test("skills: working a shift without its skill is caught", () => {
  const p = problem((x) => {
    x.staff[2].skills = [];
  });
  expectCaught('skill', [problem(), week()], [p, week()], ["Doctor Cy (C) works shift N (Night) on days 1–3 without the skill 'nights' it needs"]);
});

test("max consecutive days: the issue's message form", () => {
  const p = problem((x) => {
    x.rules!.max_consecutive_days = 3;
  });
  expectCaught('max_consecutive_days', [problem(), week()], [p, week()], [
    'Doctor Ben (B) works 4 days in a row (days 4–7); at most 3',
    'Doctor Eve (E) works 4 days in a row (days 4–7); at most 3',
  ]);
});

test('no day after night: a day shift the day after a night is caught; night after night and night after day are fine', () => {
  const noRest = problem((x) => {
    x.rules!.min_rest_hours = 0;
  });
  // Cy takes Ben's day shift on day 4, straight after his night on day 3.
  const broken = edit(edit(week(), 1, 4, null), 2, 4, 'D');
  expectCaught('no_day_after_night', [noRest, week()], [noRest, broken], [
    'Doctor Cy (C) works shift D (Day) on day 4 right after the night shift N (Night) on day 3; no day shift may follow a night shift',
  ]);
  const off = problem((x) => {
    x.rules!.min_rest_hours = 0;
    x.rules!.no_day_after_night = false;
  });
  assert.deepEqual(checkSchedule(off, broken), []);
});

test('min rest: less rest than the minimum between consecutive days is caught; exactly the minimum passes', () => {
  const noNightRule = problem((x) => {
    x.rules!.no_day_after_night = false;
  });
  const broken = edit(edit(week(), 1, 4, null), 2, 4, 'D');
  expectCaught('min_rest_hours', [noNightRule, week()], [noNightRule, broken], [
    'Doctor Cy (C) rests 0 hours between shift N (Night) on day 3 and shift D (Day) on day 4; at least 12',
  ]);
  // D then D rests exactly 12 h: 12.5 asks for more.
  const stricter = problem((x) => {
    x.rules!.min_rest_hours = 12.5;
  });
  assert.ok(checkSchedule(stricter, week()).some((v) => v.message === 'Doctor Ana (A) rests 12 hours between shift D (Day) on day 1 and shift D (Day) on day 2; at least 12.5'));
});

test('min shifts: working fewer is caught', () => {
  const p = problem((x) => {
    x.staff[0].min_shifts = 4;
  });
  expectCaught('min_shifts', [problem(), week()], [p, week()], ['Doctor Ana (A) works 3 shifts; at least 4']);
});

test('max shifts: working more is caught', () => {
  const p = problem((x) => {
    x.staff[1].max_shifts = 3;
  });
  expectCaught('max_shifts', [problem(), week()], [p, week()], ['Doctor Ben (B) works 4 shifts; at most 3']);
});

test('max per staff: more shifts of one type than allowed is caught', () => {
  const p = problem((x) => {
    x.shift_types[1].max_per_staff = 3;
  });
  expectCaught('max_per_staff', [problem(), week()], [p, week()], ['Doctor Eve (E) works 4 N (Night) shifts; at most 3']);
});

test('weekend fairness: ceil(weekend demand / eligible staff) + 1, eligible meaning available for a needed weekend shift', () => {
  // 14 days from a Monday: weekends 6, 7, 13, 14, one doctor a day → 4 weekend shifts. Dan is
  // never free on a weekend, so 3 are eligible: at most ceil(4 / 3) + 1 = 3 each (with Dan
  // counted it would be 2).
  const fair = (on: boolean) =>
    ScheduleProblemSchema.parse({
      staff: [
        { id: 'A', name: 'Ana' },
        { id: 'B', name: 'Ben' },
        { id: 'C', name: 'Cy' },
        { id: 'D', name: 'Dan', unavailable_days: [6, 7, 13, 14] },
      ],
      horizon: { days: 14 },
      shift_types: [{ code: 'D', name: 'Day', start_hour: 7, hours: 12 }],
      coverage: { default: { D: 1 } },
      rules: { weekend_fairness: on },
    });
  const row = (days: number[]) => Array.from({ length: 14 }, (_, d) => (days.includes(d + 1) ? 'D' : null));
  const three = [row([1, 2, 3, 4, 5, 6, 7, 13]), row([8, 9, 10, 11, 12, 14]), row([]), row([])];
  const four = [row([1, 2, 3, 4, 5, 6, 7, 13, 14]), row([8, 9, 10, 11, 12]), row([]), row([])];
  expectCaught('weekend_fairness', [fair(true), three], [fair(true), four], [
    'Doctor Ana (A) works 4 weekend shifts (days 6, 7, 13 and 14); at most 3: ceil(4 weekend shifts / 3 doctors) + 1',
  ]);
  assert.deepEqual(checkSchedule(fair(false), four), [], 'no cap when the rule is off');
});

test('weekend fairness: weekdays come from start_date', () => {
  // 2026-11-28 is a Saturday: days 1, 2 and 8 are the weekend of an 8-day horizon.
  const p = ScheduleProblemSchema.parse({
    staff: [
      { id: 'A', name: 'Ana' },
      { id: 'B', name: 'Ben' },
      { id: 'C', name: 'Cy' },
    ],
    horizon: { days: 8, start_date: '2026-11-28' },
    shift_types: [{ code: 'D', name: 'Day', start_hour: 7, hours: 12 }],
    coverage: { default: { D: 1 } },
    rules: { weekend_fairness: true },
  });
  // 3 weekend shifts, 3 eligible: at most 2 each.
  const row = (days: number[]) => Array.from({ length: 8 }, (_, d) => (days.includes(d + 1) ? 'D' : null));
  assert.deepEqual(checkSchedule(p, [row([1, 2, 3]), row([4, 5, 6, 7, 8]), row([])]), []);
  assert.deepEqual(rules(checkSchedule(p, [row([1, 2, 3, 8]), row([4, 5, 6, 7]), row([])])), ['weekend_fairness']);
});

test('at most one shift a day: a cell naming two shifts is caught', () => {
  const twoCodes = edit(week(), 0, 1, 'D,N');
  const asList = week() as unknown[][];
  asList[1][2] = ['D', 'N'];
  expectCaught('one_shift_per_day', [problem(), week()], [problem(), twoCodes], ['Doctor Ana (A) has 2 shifts on day 1 (D and N); at most one shift a day']);
  assert.deepEqual(checkSchedule(problem(), asList as (string | null)[][]), [
    { rule: 'one_shift_per_day', message: 'Doctor Ben (B) has 2 shifts on day 3 (D and N); at most one shift a day' },
  ]);
});

test('shape: malformed assignments are violations, never exceptions', () => {
  const p = problem();
  const cases: [unknown, string[]][] = [
    [null, ['The schedule is not a list of rows (one per staff member); it is null']],
    ['D D N', ['The schedule is not a list of rows (one per staff member); it is the string "D D N"']],
    [week().slice(0, 3), ['The schedule has 3 rows; the problem has 4 staff members']],
    [[...week(), week()[0]], ['The schedule has 5 rows; the problem has 4 staff members']],
    [[week()[0], 'D', week()[2], week()[3]], ['Doctor Ben (B)\'s row is not a list of days; it is the string "D"']],
    [[week()[0].slice(0, 6), ...week().slice(1)], ['Doctor Ana (A) has 6 days in the schedule; the horizon has 7']],
    [edit(week(), 0, 1, 'X'), ["Doctor Ana (A), day 1: unknown shift code 'X'; the shift types are D, N"]],
    [edit(week(), 0, 1, ''), ["Doctor Ana (A), day 1: unknown shift code ''; the shift types are D, N"]],
    [edit(week(), 0, 1, 'd'), ["Doctor Ana (A), day 1: unknown shift code 'd'; the shift types are D, N"]],
    [edit(week(), 0, 2, 1 as unknown as string), ['Doctor Ana (A), day 2: a cell is a shift code or empty (null), not the number 1']],
    [edit(week(), 0, 2, undefined as unknown as string), ['Doctor Ana (A), day 2: a cell is a shift code or empty (null), not missing']],
    [edit(week(), 0, 2, { code: 'D' } as unknown as string), ['Doctor Ana (A), day 2: a cell is a shift code or empty (null), not an object']],
  ];
  for (const [assignment, messages] of cases) {
    const violations = checkSchedule(p, assignment as (string | null)[][]);
    assert.deepEqual(violations, messages.map((message) => ({ rule: 'shape', message })), JSON.stringify(assignment));
  }
  caught.add('shape');
});

test('several broken rules are all reported', () => {
  const p = problem((x) => {
    x.staff[0].max_shifts = 2;
    x.rules!.max_consecutive_days = 3;
  });
  assert.deepEqual(rules(checkSchedule(p, edit(week(), 0, 4, 'D'))), ['coverage', 'max_consecutive_days', 'max_shifts']);
});

test('every rule in SCHEDULE_RULES has a test that catches it', () => {
  assert.deepEqual([...caught].sort(), [...SCHEDULE_RULES].sort());
});
