import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScheduleProblemSchema } from '@tessera/contracts';
import { dayPairCliques } from './lp-model.js';
import { coverageIsSoft, relaxProblem } from './relaxation.js';

const problem = ScheduleProblemSchema.parse({
  staff: [
    { id: 'A', name: 'Ana', min_shifts: 4, max_shifts: 9 },
    { id: 'B', name: 'Ben' },
  ],
  horizon: { days: 14 },
  shift_types: [
    { code: 'D', name: 'Day', start_hour: 7, hours: 8 },
    { code: 'E', name: 'Evening', start_hour: 15, hours: 8 },
    { code: 'N', name: 'Night', start_hour: 23, hours: 8, night: true, max_per_staff: 8 },
  ],
  coverage: { default: { D: 1, E: 1, N: 1 } },
  rules: { max_consecutive_days: 5, no_day_after_night: true, min_rest_hours: 11, weekend_fairness: true },
});

test('each level relaxes what its text says, keeping the levels below it', () => {
  assert.equal(relaxProblem(problem, 0), problem);

  const one = relaxProblem(problem, 1);
  assert.equal(one.rules.max_consecutive_days, 6);
  assert.equal(one.rules.weekend_fairness, false);
  assert.equal(one.staff[0].min_shifts, 4);
  assert.equal(one.rules.no_day_after_night, true);

  const two = relaxProblem(problem, 2);
  assert.equal(two.rules.max_consecutive_days, 6);
  assert.equal(two.staff[0].min_shifts, undefined);
  assert.equal(two.staff[0].max_shifts, 12); // ceil(9 × 1.25)
  assert.equal(two.shift_types[2].max_per_staff, 10); // 8 × 1.25
  assert.equal(two.staff[1].max_shifts, undefined);
  assert.equal(two.rules.min_rest_hours, 11);

  const three = relaxProblem(problem, 3);
  assert.equal(three.rules.max_consecutive_days, 8); // 5 + 1 + 2
  assert.equal(three.rules.no_day_after_night, false);
  assert.equal(three.rules.min_rest_hours, 0);
  assert.equal(three.staff[0].max_shifts, 12);

  const four = relaxProblem(problem, 4);
  assert.deepEqual(four, three, 'level 4 changes the coverage only, which the model and the checker are told apart');
  assert.equal(coverageIsSoft(3), false);
  assert.equal(coverageIsSoft(4), true);

  // The problem given is left as it was.
  assert.equal(problem.rules.max_consecutive_days, 5);
  assert.equal(problem.staff[0].min_shifts, 4);
});

test('two days in a row: the clashing shift pairs become the maximal cliques across the days', () => {
  // D 7–15, E 15–23, N 23–7 with 11 h rest: E then D (8 h), N then D or E (night rule and rest).
  assert.deepEqual(
    dayPairCliques(problem).sort((a, b) => a.today.length - b.today.length),
    [
      { today: [2], tomorrow: [0, 1] },
      { today: [1, 2], tomorrow: [0] },
    ],
  );
  // Rest rules off (level 3): nothing clashes across days.
  assert.deepEqual(dayPairCliques(relaxProblem(problem, 3)), []);
  // 12-hour D/N: only the night followed by a day shift.
  const twelve = {
    shift_types: [
      { code: 'D', name: 'Day', start_hour: 7, hours: 12, night: false },
      { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true },
    ],
    rules: { no_day_after_night: true, min_rest_hours: 11, weekend_fairness: false },
  };
  assert.deepEqual(dayPairCliques(twelve), [{ today: [1], tomorrow: [0] }]);
});
