import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScheduleProblemSchema, type ScheduleProblem, type ScheduleProblemInput } from '@tessera/contracts';
import { explainInfeasibility, MAX_SUGGESTED_ACTIONS, workableDays } from './infeasibility.js';

const DAY = { code: 'D', name: 'Day', start_hour: 7, hours: 12 };
const NIGHT = { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true };

function doctors(n: number, extra: (i: number) => Partial<ScheduleProblemInput['staff'][number]> = () => ({})): ScheduleProblemInput['staff'] {
  return Array.from({ length: n }, (_, i) => ({ id: `D${i + 1}`, name: `Doc${i + 1}`, ...extra(i) }));
}

const parse = (input: ScheduleProblemInput): ScheduleProblem => ScheduleProblemSchema.parse(input);

test("the issue's example: 3 doctors, 1 per night for 28 nights, at most 8 nights each → 28 and 24", () => {
  const actions = explainInfeasibility(
    parse({
      staff: doctors(3),
      horizon: { days: 28 },
      shift_types: [DAY, { ...NIGHT, max_per_staff: 8 }],
      coverage: { default: { N: 1 } },
    }),
  );
  assert.equal(actions[0], '1 doctor per night for 28 nights needs 28 doctor-nights; 3 doctors × at most 8 nights = 24 — allow at least 10 nights each, add a doctor, or lower night coverage.');
  assert.equal(actions.length, 1);
});

test('P2: 2 on night shift → 56 doctor-nights against 24, and 30 once level 2 raised the limit to 10', () => {
  const input = (max: number): ScheduleProblemInput => ({
    staff: doctors(3),
    horizon: { days: 28 },
    shift_types: [DAY, { ...NIGHT, max_per_staff: max }],
    coverage: { default: { D: 0, N: 2 } },
  });
  assert.equal(
    explainInfeasibility(parse(input(8)))[0],
    '2 doctors per night for 28 nights needs 56 doctor-nights; 3 doctors × at most 8 nights = 24 — allow at least 19 nights each, add 4 doctors, or lower night coverage.',
  );
  assert.match(explainInfeasibility(parse(input(10)))[0], /needs 56 doctor-nights; 3 doctors × at most 10 nights = 30 — .*add 3 doctors/);
});

test('a skill only some have: the eligible doctors and giving the skill are named', () => {
  const actions = explainInfeasibility(
    parse({
      staff: doctors(4, (i) => ({ skills: i === 0 ? ['icu'] : [] })),
      horizon: { days: 28 },
      shift_types: [DAY, { ...NIGHT, skill: 'icu' }],
      coverage: { default: { D: 1, N: 1 } },
      rules: { no_day_after_night: false },
    }),
  );
  // One icu doctor can take every night (28 of 28): nothing short.
  assert.ok(actions[0].startsWith('No single requirement'), actions[0]);
  const two = explainInfeasibility(
    parse({
      staff: doctors(4, (i) => ({ skills: i === 0 ? ['icu'] : [] })),
      horizon: { days: 28 },
      shift_types: [DAY, { ...NIGHT, skill: 'icu' }],
      coverage: { default: { D: 1, N: 2 } },
    }),
  );
  assert.equal(
    two[0],
    "2 doctors per night for 28 nights needs 56 doctor-nights; 1 doctor with the skill 'icu' × 28 nights (one shift a day) = 28 — give the skill 'icu' to more doctors, add a doctor with the skill 'icu', or lower night coverage.",
  );
  assert.ok(two.includes("Shift N (Night) needs 2 doctors with the skill 'icu' on days 1–28, but only 1 with it is available — give the skill to more doctors, add a doctor with it, or lower night coverage."), two.join('\n'));
});

test('per-day shortfall: more people needed on a day than are available, naming who is away', () => {
  const actions = explainInfeasibility(
    parse({
      staff: doctors(4, (i) => ({ unavailable_days: i < 2 ? [5, 12] : [] })),
      horizon: { days: 14 },
      shift_types: [DAY, NIGHT],
      coverage: { default: { D: 2, N: 1 } },
      rules: { no_day_after_night: false },
    }),
  );
  assert.deepEqual(actions, [
    'Days 5 and 12 need 3 doctors each (D 2, N 1), one shift a day each, but only 2 are available (unavailable: Doctor Doc1 (D1), Doctor Doc2 (D2)) — free some of those unavailable days, add a doctor, or lower coverage on those days.',
  ]);
});

test('consecutive-days bound: N − floor(N / (K + 1)) of N days', () => {
  assert.equal(workableDays(new Array(28).fill(true), 6), 24);
  assert.equal(workableDays(new Array(28).fill(true), undefined), 28);
  // Runs of 3 and 4 available days around a day off, at most 2 in a row: 2 + 3.
  assert.equal(workableDays([true, true, true, false, true, true, true, true], 2), 5);
  const oneShift = explainInfeasibility(
    parse({
      staff: doctors(5),
      horizon: { days: 28 },
      shift_types: [DAY],
      coverage: { default: { D: 5 } },
      rules: { max_consecutive_days: 6 },
    }),
  );
  assert.deepEqual(oneShift, [
    '5 doctors per day shift for 28 days needs 140 day shifts; 5 doctors × at most 24 working days (at most 6 days in a row: 28 − floor(28 / 7)) = 120 — allow more than 6 days in a row, add a doctor, or lower day coverage.',
  ]);
  const twoShifts = explainInfeasibility(
    parse({
      staff: doctors(6),
      horizon: { days: 28 },
      shift_types: [DAY, NIGHT],
      coverage: { default: { D: 4, N: 2 } },
      rules: { max_consecutive_days: 6 },
    }),
  );
  assert.deepEqual(twoShifts, [
    'All coverage needs 168 shifts over 28 days (6 a day); 6 doctors can work at most 144: with at most 6 days in a row a doctor works at most 24 of 28 days (28 − floor(28 / 7)): 6 × 24 = 144 — allow more than 6 days in a row, add a doctor, or lower coverage.',
  ]);
});

test('overall: the sum of max shifts short of all coverage', () => {
  const actions = explainInfeasibility(
    parse({
      staff: doctors(4, () => ({ max_shifts: 10 })),
      horizon: { days: 14 },
      shift_types: [DAY, NIGHT],
      coverage: { default: { D: 2, N: 1 } },
      rules: { no_day_after_night: false },
    }),
  );
  assert.deepEqual(actions, [
    'All coverage needs 42 shifts over 14 days (3 a day); 4 doctors can work at most 40: their max shifts add up to 40 — raise max shifts, add a doctor, or lower coverage.',
  ]);
});

test('min-shifts surplus: more minimum shifts than shifts to give out, and a minimum one person cannot reach', () => {
  const surplus = explainInfeasibility(
    parse({
      staff: doctors(4, () => ({ min_shifts: 3 })),
      horizon: { days: 7 },
      shift_types: [DAY],
      coverage: { default: { D: 1 } },
    }),
  );
  assert.deepEqual(surplus, [
    "The doctors' minimum shifts add up to 12, but coverage has only 7 shifts to give out (one doctor each) — lower the minimum shifts by 5 in all, or raise coverage.",
  ]);
  const unreachable = explainInfeasibility(
    parse({
      staff: doctors(3, (i) => (i === 0 ? { min_shifts: 7, unavailable_days: [2, 3] } : {})),
      horizon: { days: 7 },
      shift_types: [DAY],
      coverage: { default: { D: 2 } },
    }),
  );
  assert.deepEqual(unreachable, [
    'Doctor Doc1 (D1) must work at least 7 shifts but can work at most 5 (5 available days) — lower that minimum, free some unavailable days.',
  ]);
});

test('night → day succession: the night doctors of one day cannot take the next day shift', () => {
  // Mondays need 1 day and 2 night doctors, Tuesdays 2 and 1: 3 a day, but Tuesday's day shift
  // needs 2 doctors besides Monday's 2 night doctors.
  const input: ScheduleProblemInput = {
    staff: doctors(3),
    horizon: { days: 7 },
    shift_types: [DAY, NIGHT],
    coverage: { default: { D: 1, N: 1 }, by_weekday: { mon: { D: 1, N: 2 }, tue: { D: 2, N: 1 } } },
  };
  assert.deepEqual(explainInfeasibility(parse(input)), [
    'No day shift may follow a night shift: the 2 doctors on shift N (Night) one day cannot take the 2 D shifts of the next, so 4 doctors are needed on day 2, but only 3 are available — allow a day shift after a night, add a doctor, or lower coverage.',
  ]);
  // Without the rule the same coverage raises nothing specific.
  assert.match(explainInfeasibility(parse({ ...input, rules: { no_day_after_night: false } }))[0], /^No single requirement/);
});

test('minimum rest between consecutive days limits who can follow whom', () => {
  const actions = explainInfeasibility(
    parse({
      staff: doctors(3),
      horizon: { days: 7 },
      shift_types: [
        { code: 'D', name: 'Day', start_hour: 7, hours: 8 },
        { code: 'E', name: 'Evening', start_hour: 15, hours: 8 },
      ],
      coverage: { default: { D: 2, E: 1 }, by_weekday: { mon: { D: 1, E: 2 } } },
      rules: { min_rest_hours: 11 },
    }),
  );
  assert.deepEqual(actions, [
    "E then D leaves 8 hours' rest, at least 11 required: the 2 doctors on shift E (Evening) one day cannot take the 2 D shifts of the next, so 4 doctors are needed on day 2, but only 3 are available — lower the minimum rest, add a doctor, or lower coverage.",
  ]);
});

test('weekend fairness cap short of the weekend demand', () => {
  // Weekends only, 2 a day over 14 days: 8 weekend shifts, 5 eligible → at most ceil(8 / 5) + 1 = 3
  // each; Ana can take 3, the four others one weekend day each: 7.
  const input: ScheduleProblemInput = {
    staff: [
      { id: 'A', name: 'Ana' },
      { id: 'B', name: 'Ben', unavailable_days: [7, 13, 14] },
      { id: 'C', name: 'Cy', unavailable_days: [6, 13, 14] },
      { id: 'E', name: 'Eve', unavailable_days: [6, 7, 14] },
      { id: 'F', name: 'Fay', unavailable_days: [6, 7, 13] },
    ],
    horizon: { days: 14 },
    shift_types: [DAY],
    coverage: { default: { D: 0 }, by_weekday: { sat: { D: 2 }, sun: { D: 2 } } },
    rules: { weekend_fairness: true },
  };
  assert.deepEqual(explainInfeasibility(parse(input)), [
    'Weekend fairness lets each doctor work at most 3 weekend shifts (ceil(8 / 5) + 1); with their unavailable weekend days and limits the 5 doctors can take only 7 of the 8 weekend shifts — turn weekend fairness off, free some weekend days, or add a doctor.',
  ]);
  assert.match(explainInfeasibility(parse({ ...input, rules: { weekend_fairness: false } }))[0], /^No single requirement/);
});

test('nothing specific: one generic action naming the tightest requirements and the rules to relax', () => {
  // Only Ana is free on days 7, 13 and 14, but weekend fairness allows her ceil(4 / 4) + 1 = 2.
  const actions = explainInfeasibility(
    parse({
      staff: [
        { id: 'A', name: 'Ana' },
        { id: 'B', name: 'Ben', unavailable_days: [7, 13, 14] },
        { id: 'C', name: 'Cy', unavailable_days: [7, 13, 14] },
        { id: 'E', name: 'Eve', unavailable_days: [7, 13, 14] },
      ],
      horizon: { days: 14 },
      shift_types: [DAY],
      coverage: { default: { D: 0 }, by_weekday: { sat: { D: 1 }, sun: { D: 1 } } },
      rules: { weekend_fairness: true, max_consecutive_days: 5 },
    }),
  );
  assert.deepEqual(actions, [
    'No single requirement falls short on its own, but together they leave no schedule. The tightest: day 7 (1 of 1 available doctor), day coverage (4 of the 7 day shifts the staff can work), all coverage (4 of the 42 shifts the staff can work), at most 5 days in a row and weekend fairness. Try to allow more days in a row, turn weekend fairness off, add a doctor, or lower coverage.',
  ]);
});

test('at most 5 actions, the largest shortfall first', () => {
  // Six doctors with minimums they cannot reach by different amounts, and 2 per night against 3 × 8.
  const actions = explainInfeasibility(
    parse({
      staff: doctors(6, (i) => ({ min_shifts: 28, unavailable_days: Array.from({ length: i + 1 }, (_, d) => d + 1) })),
      horizon: { days: 28 },
      shift_types: [{ ...NIGHT, max_per_staff: 8 }],
      coverage: { default: { N: 2 } },
    }),
  );
  assert.equal(actions.length, MAX_SUGGESTED_ACTIONS);
  // Minimums: 6 × 28 = 168 against 56 shifts (112 short); nights: 56 against 6 × 8 = 48 (8 short);
  // then the doctors short of their own minimum by 6, 5 and 4; those short by 3, 2 and 1 are left out.
  assert.match(actions[0], /minimum shifts add up to 168, but coverage has only 56/);
  assert.match(actions[1], /needs 56 doctor-nights; 6 doctors × at most 8 nights = 48/);
  assert.match(actions[2], /^Doctor Doc6 \(D6\) must work at least 28 shifts but can work at most 22 \(22 available days\)/);
  assert.match(actions[4], /^Doctor Doc4 \(D4\)/);
  assert.ok(!actions.some((a) => a.includes('Doc1 (D1)')), actions.join('\n'));
});
