import {
  ScheduleProblemSchema,
  requiredHeadcount,
  scheduleDate,
  scheduleWeekday,
  type ScheduleProblemInput,
} from './schedule-problem.schema.js';
import {
  SCHEDULE_RELAXATIONS,
  ScheduleOptimizationSchema,
  relaxationText,
  relaxedTexts,
  solverBadgeText,
  solverFailedMessage,
} from './schedule-result.schema.js';
import { HybridForwardBodySchema } from '../ai/hybrid.schema.js';

const problem = (over: Partial<ScheduleProblemInput> = {}): ScheduleProblemInput => ({
  staff: [
    { id: 'DR01', name: 'Ana' },
    { id: 'DR02', name: 'Ben', unavailable_days: [3], preferences: [{ kind: 'avoid', shift: 'N' }] },
  ],
  horizon: { days: 14, start_date: '2026-12-05' },
  shift_types: [
    { code: 'D', name: 'Day', start_hour: 7, hours: 12 },
    { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true },
  ],
  coverage: { default: { D: 1, N: 1 }, by_weekday: { sun: { D: 0 } }, by_day: { '2': { N: 0 } } },
  ...over,
});

test('a problem parses with its defaults filled in', () => {
  const parsed = ScheduleProblemSchema.parse(problem());
  expect(parsed.rules).toEqual({ no_day_after_night: true, min_rest_hours: 0, weekend_fairness: false });
  expect(parsed.objective).toEqual({ preference_weight: 1, balance_weight: 1 });
  expect(parsed.staff[0]).toMatchObject({ skills: [], unavailable_days: [], preferences: [] });
  expect(parsed.staff[1].preferences[0].weight).toBe(1);
});

test('headcount: a day number beats its weekday, which beats the default', () => {
  const parsed = ScheduleProblemSchema.parse(problem());
  // 2026-12-05 is a Saturday: day 2 is a Sunday.
  expect(scheduleWeekday(parsed.horizon, 1)).toBe('sat');
  expect(scheduleWeekday(parsed.horizon, 2)).toBe('sun');
  expect(scheduleDate(parsed.horizon, 2)).toBe('2026-12-06');
  expect(requiredHeadcount(parsed, 2, 'D')).toBe(0);
  expect(requiredHeadcount(parsed, 2, 'N')).toBe(0);
  expect(requiredHeadcount(parsed, 1, 'N')).toBe(1);
  expect(scheduleWeekday({ days: 7 }, 1)).toBe('mon');
});

test('cross-references are checked: ids, codes and days', () => {
  const bad = ScheduleProblemSchema.safeParse(
    problem({
      staff: [
        { id: 'DR01', name: 'Ana', min_shifts: 5, max_shifts: 2 },
        { id: 'DR01', name: 'Ben', unavailable_days: [15], preferences: [{ kind: 'prefer', shift: 'X' }] },
      ],
      shift_types: [
        { code: 'D', name: 'Day', start_hour: 7, hours: 12 },
        { code: 'D', name: 'Again', start_hour: 8, hours: 8 },
      ],
      coverage: { default: { N: 1 }, by_day: { '20': { D: 1 } } },
    }),
  );
  expect(bad.success).toBe(false);
  const messages = bad.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  expect(messages).toEqual(
    expect.arrayContaining([
      'shift_types.1.code: shift code D is given twice',
      'staff.0.min_shifts: min_shifts 5 is above max_shifts 2',
      'staff.1.id: staff id DR01 is given twice',
      "staff.1.unavailable_days.0: day 15 is after the horizon's 14 days",
      'staff.1.preferences.0.shift: unknown shift code X; the shift types are D',
      'coverage.default.N: unknown shift code N; the shift types are D',
      "coverage.by_day.20: day 20 is after the horizon's 14 days",
    ]),
  );
});

test('limits: horizons stay within 99 days (1–2 digit day headers) and shift codes are short', () => {
  expect(ScheduleProblemSchema.safeParse(problem({ horizon: { days: 100 } })).success).toBe(false);
  expect(ScheduleProblemSchema.safeParse(problem({ horizon: { days: 2 }, coverage: { default: { D: 1 } } })).error?.issues[0].message).toBe(
    'a schedule covers at least 3 days',
  );
  expect(ScheduleProblemSchema.safeParse(problem({ horizon: { days: 14, start_date: '2026-13-01' } })).success).toBe(false);
  const longCode = problem({ shift_types: [{ code: 'NIGHTS', name: 'Night', start_hour: 19, hours: 12 }], coverage: { default: {} } });
  expect(ScheduleProblemSchema.safeParse(longCode).success).toBe(false);
});

test('parameters.optimization: a schedule problem lets Direct Exec go without code; anything else is refused', () => {
  const optimization = { kind: 'schedule', problem: problem() };
  expect(ScheduleOptimizationSchema.parse(optimization)).toMatchObject({ relaxation_level: 0, manual_retry: false });
  expect(HybridForwardBodySchema.safeParse({ parameters: { optimization } }).success).toBe(true);
  expect(HybridForwardBodySchema.safeParse({ parameters: {} }).success).toBe(false);
  expect(HybridForwardBodySchema.safeParse({ parameters: { optimization: { kind: 'schedule', problem: {} } } }).success).toBe(false);
  expect(HybridForwardBodySchema.safeParse({ parameters: { optimization: { ...optimization, relaxation_level: 5 } } }).success).toBe(false);
});

test('spec 02 §8 and §4 texts', () => {
  expect(solverFailedMessage(3)).toBe('Math model requirements update cannot be fulfilled. Solver could not solve the problem after 3 attempts.');
  expect(solverBadgeText({ working_status: 'retrying', retry_count: 2, max_retries: 3 })).toBe('Solver: retrying (attempt 2 of 3)');
  expect(solverBadgeText({ working_status: 'failed', retry_count: 3, max_retries: 3 })).toBe('Solver: failed');
});

test("the texts of what was relaxed are the relaxation levels' texts, level by level", () => {
  expect(relaxedTexts(0)).toEqual([]);
  expect(relaxedTexts(2)).toEqual([SCHEDULE_RELAXATIONS[0].text, SCHEDULE_RELAXATIONS[1].text]);
  expect(relaxationText(3)).toBe(SCHEDULE_RELAXATIONS[2].text);
  expect(relaxationText(5)).toBe('');
});
