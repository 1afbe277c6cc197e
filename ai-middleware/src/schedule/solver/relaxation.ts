import { SCHEDULE_MAX_RELAXATION_LEVEL, type ScheduleProblem } from '@tessera/contracts';

/**
 * The relaxation levels of SCHEDULE_RELAXATIONS, applied to a problem: what the solver solves
 * and what the checker checks a schedule against at that level. Levels are cumulative.
 * Level 4 (coverage as a target) is not a change to the problem itself: the model and the
 * checker are told through coverageIsSoft(level).
 */
export function relaxProblem(problem: ScheduleProblem, level: number): ScheduleProblem {
  if (level <= 0) return problem;
  const rules = { ...problem.rules };
  let staff = problem.staff;
  let shiftTypes = problem.shift_types;
  // Level 1: one more working day in a row, weekend fairness dropped.
  let extraConsecutive = 1;
  rules.weekend_fairness = false;
  // Level 2: minimum shifts dropped; maximum shifts (overall and per shift type) raised by a quarter.
  if (level >= 2) {
    const raise = (max: number | undefined) => (max === undefined ? undefined : Math.ceil(max * 1.25));
    staff = staff.map((member) => ({ ...member, min_shifts: undefined, max_shifts: raise(member.max_shifts) }));
    shiftTypes = shiftTypes.map((shift) => ({ ...shift, max_per_staff: raise(shift.max_per_staff) }));
  }
  // Level 3: rest rules dropped, two more working days in a row.
  if (level >= 3) {
    rules.no_day_after_night = false;
    rules.min_rest_hours = 0;
    extraConsecutive += 2;
  }
  if (rules.max_consecutive_days !== undefined) rules.max_consecutive_days += extraConsecutive;
  return { ...problem, staff, shift_types: shiftTypes, rules };
}

/** At the last level coverage is a target: shifts may stay unfilled, each one reported. */
export function coverageIsSoft(level: number): boolean {
  return level >= SCHEDULE_MAX_RELAXATION_LEVEL;
}
