import { requiredHeadcount, scheduleWeekday, type ScheduleProblem, type ShiftType, type StaffMember } from '@tessera/contracts';
import { count, dayList, doctorLabel, hoursText, joinAnd, shiftLabel, weekdayText } from './schedule-words.js';
import { hasSkillFor, isWeekendDay, weekendShiftCap } from './weekend-fairness.js';

/**
 * The independent schedule checker (issue 8: "every schedule is checked against every hard rule
 * by an independent checker before it is returned; a violated rule is an error, never a
 * result"). It reads the problem and the assignment only, never the MILP's model, so that a
 * mistake in the model shows up here instead of reaching a sheet.
 */

/** The hard rules, in the order they are checked. */
export const SCHEDULE_RULES = [
  /** One row per staff member, one cell per day, each cell a known shift code or empty. */
  'shape',
  /** At most one shift a day: a cell naming two shifts ('D,N', ['D', 'N']). */
  'one_shift_per_day',
  /** Exactly the required headcount per day and shift (with coverageSoft: at most it). */
  'coverage',
  'unavailable_days',
  'skill',
  'max_consecutive_days',
  'no_day_after_night',
  'min_rest_hours',
  'min_shifts',
  'max_shifts',
  'max_per_staff',
  'weekend_fairness',
] as const;
export type ScheduleRule = (typeof SCHEDULE_RULES)[number];

export interface ScheduleViolation {
  rule: ScheduleRule;
  message: string;
}

export interface CheckOptions {
  /**
   * Coverage as a target (the last relaxation level): fewer people than required is allowed —
   * the caller reports the gap — but never more.
   */
  coverageSoft?: boolean;
}

type Assignment = (string | null)[][];

/**
 * Every violated hard rule of `assignment` (assignment[s][d − 1]: the shift code staff s, in
 * problem.staff order, works on day d, or null) for `problem`; [] when the schedule is valid.
 * A malformed assignment gives 'shape' violations (and nothing else: the other rules cannot be
 * read from it), never an exception.
 */
export function checkSchedule(problem: ScheduleProblem, assignment: Assignment, options: CheckOptions = {}): ScheduleViolation[] {
  const shape = checkShape(problem, assignment as unknown);
  if (shape.length > 0) return shape;
  const shifts = new Map(problem.shift_types.map((shift) => [shift.code, shift]));
  return [
    ...checkCoverage(problem, assignment, options),
    ...problem.staff.flatMap((member, s) => checkPerson(problem, shifts, member, assignment[s])),
    ...checkWeekendFairness(problem, assignment),
  ];
}

function checkShape(problem: ScheduleProblem, assignment: unknown): ScheduleViolation[] {
  const days = problem.horizon.days;
  const staffCount = problem.staff.length;
  const codes = new Set(problem.shift_types.map((shift) => shift.code));
  const known = `the shift types are ${[...codes].join(', ')}`;
  const shape = (message: string): ScheduleViolation => ({ rule: 'shape', message });
  if (!Array.isArray(assignment)) return [shape(`The schedule is not a list of rows (one per staff member); it is ${describe(assignment)}`)];
  const violations: ScheduleViolation[] = [];
  if (assignment.length !== staffCount) {
    violations.push(shape(`The schedule has ${count(assignment.length, 'row')}; the problem has ${count(staffCount, 'staff member')}`));
  }
  assignment.slice(0, staffCount).forEach((row: unknown, s) => {
    const who = doctorLabel(problem.staff[s]);
    if (!Array.isArray(row)) {
      violations.push(shape(`${who}'s row is not a list of days; it is ${describe(row)}`));
      return;
    }
    if (row.length !== days) violations.push(shape(`${who} has ${count(row.length, 'day')} in the schedule; the horizon has ${days}`));
    for (let d = 0; d < Math.min(row.length, days); d++) {
      const cell: unknown = row[d];
      if (cell === null || (typeof cell === 'string' && codes.has(cell))) continue;
      const several = severalCodes(cell, codes);
      if (several) {
        violations.push({ rule: 'one_shift_per_day', message: `${who} has ${several.length} shifts on day ${d + 1} (${joinAnd(several)}); at most one shift a day` });
      } else if (typeof cell === 'string') {
        violations.push(shape(`${who}, day ${d + 1}: unknown shift code '${cell}'; ${known}`));
      } else {
        violations.push(shape(`${who}, day ${d + 1}: a cell is a shift code or empty (null), not ${describe(cell)}`));
      }
    }
  });
  return violations;
}

/** The known codes a cell names when it names more than one ('D,N', 'D N', 'D+N', ['D', 'N']); else null. */
function severalCodes(cell: unknown, codes: Set<string>): string[] | null {
  const parts = Array.isArray(cell) ? cell : typeof cell === 'string' ? cell.split(/[\s,;+/&]+/).filter((p) => p !== '') : [];
  if (parts.length < 2 || !parts.every((p) => typeof p === 'string' && codes.has(p))) return null;
  return parts as string[];
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `${typeof value === 'object' ? 'an object' : `the ${typeof value} ${JSON.stringify(value)}`}`;
}

function checkCoverage(problem: ScheduleProblem, assignment: Assignment, options: CheckOptions): ScheduleViolation[] {
  const violations: ScheduleViolation[] = [];
  for (let day = 1; day <= problem.horizon.days; day++) {
    for (const shift of problem.shift_types) {
      const required = requiredHeadcount(problem, day, shift.code);
      const workers = problem.staff.filter((_, s) => assignment[s][day - 1] === shift.code);
      const where = `Day ${day} (${weekdayText(scheduleWeekday(problem.horizon, day))}), shift ${shiftLabel(shift)}`;
      if (workers.length > required) {
        const exactly = options.coverageSoft ? 'at most' : 'exactly';
        violations.push({
          rule: 'coverage',
          message: `${where}: ${count(workers.length, 'doctor')} (${workers.map((m) => m.id).join(', ')}); ${exactly} ${required} needed`,
        });
      } else if (workers.length < required && !options.coverageSoft) {
        violations.push({ rule: 'coverage', message: `${where}: ${count(workers.length, 'doctor')} of the ${required} needed` });
      }
    }
  }
  return violations;
}

/** Every rule of one person's row. */
function checkPerson(problem: ScheduleProblem, shifts: Map<string, ShiftType>, member: StaffMember, row: (string | null)[]): ScheduleViolation[] {
  const { rules } = problem;
  const who = doctorLabel(member);
  const violations: ScheduleViolation[] = [];
  const worked: number[] = [];
  row.forEach((code, d) => {
    if (code !== null) worked.push(d + 1);
  });

  const unavailable = worked.filter((day) => member.unavailable_days.includes(day));
  if (unavailable.length > 0) {
    violations.push({ rule: 'unavailable_days', message: `${who} works on ${dayList(unavailable)}, marked unavailable` });
  }

  for (const shift of problem.shift_types) {
    const days = worked.filter((day) => row[day - 1] === shift.code);
    if (days.length > 0 && !hasSkillFor(member, shift)) {
      violations.push({ rule: 'skill', message: `${who} works shift ${shiftLabel(shift)} on ${dayList(days)} without the skill '${shift.skill}' it needs` });
    }
  }

  if (rules.max_consecutive_days !== undefined) {
    const most = rules.max_consecutive_days;
    for (const run of workingRuns(row)) {
      if (run.length > most) {
        violations.push({
          rule: 'max_consecutive_days',
          message: `${who} works ${run.length} days in a row (${dayList(run)}); at most ${most}`,
        });
      }
    }
  }

  // Pairs of shifts on consecutive days: the rest rules look at the end of one day's shift and
  // the start of the next day's (a day off in between is always rest enough, as the model has it).
  for (let day = 1; day < problem.horizon.days; day++) {
    const first = row[day - 1] === null ? undefined : shifts.get(row[day - 1] as string);
    const next = row[day] === null ? undefined : shifts.get(row[day] as string);
    if (!first || !next) continue;
    if (rules.no_day_after_night && first.night && !next.night) {
      violations.push({
        rule: 'no_day_after_night',
        message: `${who} works shift ${shiftLabel(next)} on day ${day + 1} right after the night shift ${shiftLabel(first)} on day ${day}; no day shift may follow a night shift`,
      });
    }
    const rest = 24 + next.start_hour - (first.start_hour + first.hours);
    if (rules.min_rest_hours > 0 && rest < rules.min_rest_hours) {
      violations.push({
        rule: 'min_rest_hours',
        message: `${who} rests ${hoursText(rest)} hours between shift ${shiftLabel(first)} on day ${day} and shift ${shiftLabel(next)} on day ${day + 1}; at least ${hoursText(rules.min_rest_hours)}`,
      });
    }
  }

  if (member.min_shifts !== undefined && worked.length < member.min_shifts) {
    violations.push({ rule: 'min_shifts', message: `${who} works ${count(worked.length, 'shift')}; at least ${member.min_shifts}` });
  }
  if (member.max_shifts !== undefined && worked.length > member.max_shifts) {
    violations.push({ rule: 'max_shifts', message: `${who} works ${count(worked.length, 'shift')}; at most ${member.max_shifts}` });
  }
  for (const shift of problem.shift_types) {
    if (shift.max_per_staff === undefined) continue;
    const n = row.filter((code) => code === shift.code).length;
    if (n > shift.max_per_staff) {
      violations.push({ rule: 'max_per_staff', message: `${who} works ${count(n, `${shift.code} (${shift.name}) shift`)}; at most ${shift.max_per_staff}` });
    }
  }
  return violations;
}

/** The maximal runs of consecutive working days of one row, as day numbers. */
function workingRuns(row: (string | null)[]): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  row.forEach((code, d) => {
    if (code !== null) run.push(d + 1);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length > 0) runs.push(run);
  return runs;
}

function checkWeekendFairness(problem: ScheduleProblem, assignment: Assignment): ScheduleViolation[] {
  if (!problem.rules.weekend_fairness) return [];
  const cap = weekendShiftCap(problem);
  // No weekend demand: nobody may work a weekend shift anyway (coverage), and the model adds no cap either.
  if (cap === null || cap.demand === 0) return [];
  const violations: ScheduleViolation[] = [];
  problem.staff.forEach((member, s) => {
    const days = assignment[s].flatMap((code, d) => (code !== null && isWeekendDay(problem, d + 1) ? [d + 1] : []));
    if (days.length > cap.cap) {
      violations.push({
        rule: 'weekend_fairness',
        message:
          `${doctorLabel(member)} works ${count(days.length, 'weekend shift')} (${dayList(days)}); at most ${cap.cap}: ` +
          `ceil(${cap.demand} weekend shifts / ${count(cap.eligible, 'doctor')}) + 1`,
      });
    }
  });
  return violations;
}
