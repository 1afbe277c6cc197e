import { z } from 'zod';

/**
 * The staff-rostering problem the schedule solver takes (spec 02: "solve schedule problems";
 * DESIGN.md § AI): who can work, over how many days, which shifts exist, how many people each
 * shift needs, and the rules. Hard rules are the MILP's constraints; preferences and an even
 * workload are its objective. Days are numbered 1..N; weekdays count from start_date, or from
 * a Monday on day 1 when there is none. At most one shift a day is always a rule (a schedule
 * cell holds one shift code).
 */

/** Bounds that keep one solve inside the 30-second limit and its grid inside a sheet: day headers stay 1–2 digits (spec 02 §5). */
export const SCHEDULE_LIMITS = {
  maxStaff: 300,
  maxDays: 99,
  maxShiftTypes: 6,
  maxPreferencesPerStaff: 200,
  maxSkills: 20,
} as const;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKEND_DAYS: readonly Weekday[] = ['sat', 'sun'];

const ShiftCodeSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9]{0,3}$/, 'a shift code is a letter followed by up to 3 letters or digits (D, E, N, N2)');
const DayNumberSchema = z.number().int().min(1).max(SCHEDULE_LIMITS.maxDays);
const HeadcountSchema = z.number().int().min(0).max(SCHEDULE_LIMITS.maxStaff);
/** Headcount per shift code for one day: { "D": 2, "N": 1 }. */
export const ShiftHeadcountSchema = z.record(ShiftCodeSchema, HeadcountSchema);
export type ShiftHeadcount = z.infer<typeof ShiftHeadcountSchema>;

export const ShiftTypeSchema = z.object({
  code: ShiftCodeSchema,
  name: z.string().trim().min(1).max(40),
  /** Hour of the day the shift starts (0–23.99); with `hours`, what the rest rules measure. */
  start_hour: z.number().min(0).lt(24),
  hours: z.number().positive().max(24),
  /** A night shift: no day shift may follow it the next day (rules.no_day_after_night). */
  night: z.boolean().default(false),
  /** Most shifts of this type one person may work over the horizon (e.g. at most 8 nights). */
  max_per_staff: z.number().int().min(0).max(SCHEDULE_LIMITS.maxDays).optional(),
  /** Only staff with this skill may work it. */
  skill: z.string().trim().min(1).max(40).optional(),
});
export type ShiftType = z.infer<typeof ShiftTypeSchema>;

/** A wish: to work (prefer) or not (avoid) a shift (any shift when none is named) on a day (every day when none). */
export const SchedulePreferenceSchema = z.object({
  kind: z.enum(['prefer', 'avoid']),
  day: DayNumberSchema.optional(),
  shift: ShiftCodeSchema.optional(),
  weight: z.number().int().min(1).max(10).default(1),
});
export type SchedulePreference = z.infer<typeof SchedulePreferenceSchema>;

export const StaffMemberSchema = z.object({
  id: z.string().trim().min(1).max(64),
  name: z.string().trim().min(1).max(120),
  skills: z.array(z.string().trim().min(1).max(40)).max(SCHEDULE_LIMITS.maxSkills).default([]),
  /** Days (1..N) this person cannot work at all. */
  unavailable_days: z.array(DayNumberSchema).max(SCHEDULE_LIMITS.maxDays).default([]),
  min_shifts: z.number().int().min(0).max(SCHEDULE_LIMITS.maxDays).optional(),
  max_shifts: z.number().int().min(0).max(SCHEDULE_LIMITS.maxDays).optional(),
  preferences: z.array(SchedulePreferenceSchema).max(SCHEDULE_LIMITS.maxPreferencesPerStaff).default([]),
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;

/** Fewest days: the schedule grid needs at least 3 day columns to read as a schedule (spec 02 §5). */
export const SCHEDULE_MIN_DAYS = 3;

export const ScheduleHorizonSchema = z.object({
  days: z.number().int().min(SCHEDULE_MIN_DAYS, `a schedule covers at least ${SCHEDULE_MIN_DAYS} days`).max(SCHEDULE_LIMITS.maxDays),
  /** ISO date of day 1; it names the weekdays and the grid's dates. */
  start_date: z.iso.date().optional(),
});
export type ScheduleHorizon = z.infer<typeof ScheduleHorizonSchema>;

/** Headcount per shift and day: `default` for every day, overridden by weekday, overridden by a day number ("1".."N"). */
export const ScheduleCoverageSchema = z.object({
  default: ShiftHeadcountSchema,
  by_weekday: z.partialRecord(z.enum(WEEKDAYS), ShiftHeadcountSchema).optional(),
  by_day: z.record(z.string().regex(/^[1-9][0-9]?$/, 'a day number 1..99'), ShiftHeadcountSchema).optional(),
});
export type ScheduleCoverage = z.infer<typeof ScheduleCoverageSchema>;

export const ScheduleRulesSchema = z.object({
  /** Most working days in a row; none: no limit. */
  max_consecutive_days: z.number().int().min(1).max(SCHEDULE_LIMITS.maxDays).optional(),
  /** No non-night shift on the day after a night shift. */
  no_day_after_night: z.boolean().default(true),
  /** Least hours between the end of one shift and the start of the next (0: no rule). */
  min_rest_hours: z.number().min(0).max(48).default(0),
  /** Weekend shifts shared evenly: nobody works more than one above an even share of them. */
  weekend_fairness: z.boolean().default(false),
});
export type ScheduleRules = z.infer<typeof ScheduleRulesSchema>;

export const ScheduleObjectiveSchema = z.object({
  /** Weight of each honoured or broken preference point. */
  preference_weight: z.number().min(0).max(100).default(1),
  /** Weight of each shift a person works above or below an even share. */
  balance_weight: z.number().min(0).max(100).default(1),
});
export type ScheduleObjective = z.infer<typeof ScheduleObjectiveSchema>;

const ScheduleProblemShape = z.object({
  staff: z.array(StaffMemberSchema).min(1).max(SCHEDULE_LIMITS.maxStaff),
  horizon: ScheduleHorizonSchema,
  shift_types: z.array(ShiftTypeSchema).min(1).max(SCHEDULE_LIMITS.maxShiftTypes),
  coverage: ScheduleCoverageSchema,
  rules: ScheduleRulesSchema.default({ no_day_after_night: true, min_rest_hours: 0, weekend_fairness: false }),
  objective: ScheduleObjectiveSchema.default({ preference_weight: 1, balance_weight: 1 }),
});

/** The problem, with every cross-reference checked: unique ids and codes, known shift codes, days within the horizon. */
export const ScheduleProblemSchema = ScheduleProblemShape.superRefine((problem, ctx) => {
  const days = problem.horizon.days;
  const codes = new Set<string>();
  problem.shift_types.forEach((shift, i) => {
    if (codes.has(shift.code)) ctx.addIssue({ code: 'custom', path: ['shift_types', i, 'code'], message: `shift code ${shift.code} is given twice` });
    codes.add(shift.code);
  });
  const knownCode = (code: string, path: (string | number)[]) => {
    if (!codes.has(code)) ctx.addIssue({ code: 'custom', path, message: `unknown shift code ${code}; the shift types are ${[...codes].join(', ')}` });
  };
  const withinHorizon = (day: number, path: (string | number)[]) => {
    if (day > days) ctx.addIssue({ code: 'custom', path, message: `day ${day} is after the horizon's ${days} days` });
  };
  const ids = new Set<string>();
  problem.staff.forEach((member, i) => {
    if (ids.has(member.id)) ctx.addIssue({ code: 'custom', path: ['staff', i, 'id'], message: `staff id ${member.id} is given twice` });
    ids.add(member.id);
    member.unavailable_days.forEach((day, j) => withinHorizon(day, ['staff', i, 'unavailable_days', j]));
    member.preferences.forEach((pref, j) => {
      if (pref.day !== undefined) withinHorizon(pref.day, ['staff', i, 'preferences', j, 'day']);
      if (pref.shift !== undefined) knownCode(pref.shift, ['staff', i, 'preferences', j, 'shift']);
    });
    if (member.min_shifts !== undefined && member.max_shifts !== undefined && member.min_shifts > member.max_shifts) {
      ctx.addIssue({ code: 'custom', path: ['staff', i, 'min_shifts'], message: `min_shifts ${member.min_shifts} is above max_shifts ${member.max_shifts}` });
    }
  });
  const headcounts = (counts: ShiftHeadcount, path: (string | number)[]) => {
    for (const code of Object.keys(counts)) knownCode(code, [...path, code]);
  };
  headcounts(problem.coverage.default, ['coverage', 'default']);
  for (const [weekday, counts] of Object.entries(problem.coverage.by_weekday ?? {})) headcounts(counts, ['coverage', 'by_weekday', weekday]);
  for (const [day, counts] of Object.entries(problem.coverage.by_day ?? {})) {
    withinHorizon(Number(day), ['coverage', 'by_day', day]);
    headcounts(counts, ['coverage', 'by_day', day]);
  }
});
/** A problem as given (defaults may be left out). */
export type ScheduleProblemInput = z.input<typeof ScheduleProblemSchema>;
/** A problem after parsing: every default filled in. */
export type ScheduleProblem = z.infer<typeof ScheduleProblemSchema>;

/** Weekday of day `day` (1-based): from start_date, else day 1 is a Monday. */
export function scheduleWeekday(horizon: ScheduleHorizon, day: number): Weekday {
  const first = horizon.start_date ? (new Date(`${horizon.start_date}T00:00:00Z`).getUTCDay() + 6) % 7 : 0;
  return WEEKDAYS[(first + day - 1) % 7];
}

/** ISO date of day `day`, when the horizon has a start date. */
export function scheduleDate(horizon: ScheduleHorizon, day: number): string | undefined {
  if (!horizon.start_date) return undefined;
  const at = new Date(`${horizon.start_date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + day - 1);
  return at.toISOString().slice(0, 10);
}

/** How many people shift `code` needs on day `day`: by_day, else by_weekday, else default, else 0. */
export function requiredHeadcount(problem: Pick<ScheduleProblem, 'coverage' | 'horizon'>, day: number, code: string): number {
  const { coverage } = problem;
  const byDay = coverage.by_day?.[String(day)];
  if (byDay && code in byDay) return byDay[code];
  const byWeekday = coverage.by_weekday?.[scheduleWeekday(problem.horizon, day)];
  if (byWeekday && code in byWeekday) return byWeekday[code];
  return coverage.default[code] ?? 0;
}
