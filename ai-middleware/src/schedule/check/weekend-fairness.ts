import { requiredHeadcount, scheduleWeekday, WEEKEND_DAYS, type ScheduleProblem, type ShiftType, type StaffMember } from '@tessera/contracts';

/**
 * Weekend fairness (rules.weekend_fairness), defined once for the checker, the suggested actions
 * and the MILP (S1's model uses the same definition):
 *
 *   nobody works more than  cap = ceil(W / E) + 1  weekend shifts, where
 *   W = the total weekend demand: every shift type's required headcount summed over the
 *       horizon's Saturdays and Sundays (scheduleWeekday, requiredHeadcount), and
 *   E = the staff eligible for any weekend shift: people who could work at least one weekend
 *       shift that is needed, i.e. a Saturday or Sunday they are not unavailable on, and a shift
 *       type needed that day whose skill (if any) they have.
 *
 * Limits on shift counts (max_shifts, max_per_staff) do not change E: they are rules of their own.
 * With no one eligible there is no cap (null): the weekend demand is then a coverage shortfall.
 */
export interface WeekendCap {
  cap: number;
  /** W: weekend shifts needed over the horizon. */
  demand: number;
  /** E: people eligible for a weekend shift. */
  eligible: number;
}

export function isWeekendDay(problem: Pick<ScheduleProblem, 'horizon'>, day: number): boolean {
  return WEEKEND_DAYS.includes(scheduleWeekday(problem.horizon, day));
}

/** Whether a person may work a shift type at all: they have its skill, when it names one. */
export function hasSkillFor(member: Pick<StaffMember, 'skills'>, shift: Pick<ShiftType, 'skill'>): boolean {
  return shift.skill === undefined || member.skills.includes(shift.skill);
}

export function weekendDays(problem: Pick<ScheduleProblem, 'horizon'>): number[] {
  const days: number[] = [];
  for (let day = 1; day <= problem.horizon.days; day++) if (isWeekendDay(problem, day)) days.push(day);
  return days;
}

/** The cap of weekend shifts per person, or null when no one is eligible for a weekend shift. */
export function weekendShiftCap(problem: ScheduleProblem): WeekendCap | null {
  const days = weekendDays(problem);
  let demand = 0;
  for (const day of days) for (const shift of problem.shift_types) demand += requiredHeadcount(problem, day, shift.code);
  const eligible = problem.staff.filter((member) =>
    days.some(
      (day) =>
        !member.unavailable_days.includes(day) &&
        problem.shift_types.some((shift) => requiredHeadcount(problem, day, shift.code) > 0 && hasSkillFor(member, shift)),
    ),
  ).length;
  if (eligible === 0) return null;
  return { cap: Math.ceil(demand / eligible) + 1, demand, eligible };
}
