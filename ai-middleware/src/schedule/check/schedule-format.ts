import {
  ScheduleFormattedSchema,
  scheduleDate,
  scheduleWeekday,
  type ScheduleFormatted,
  type ScheduleProblem,
  type ScheduleSolveStatus,
} from '@tessera/contracts';

/**
 * The solved schedule as data (backend_solver.schedule_formatted_json) and as the grid a new
 * schedule sheet is made from (issue 8: Doctor ID, Doctor Name, 1..N, then a total per shift
 * type). The grid must keep the schedule shape of spec 02 §5 (a doctor header, at least 3 day
 * headers of 1–2 digits, at least 5 headers), or the sheet would not be recognised as one.
 */

export interface ScheduleResultSummary {
  status: ScheduleSolveStatus;
  objective: number | null;
  gap: number | null;
  uncovered: { day: number; shift: string; missing: number }[];
}

/** The grid's fixed headers: spec 02 §5 recognises a schedule by them. */
export const SCHEDULE_GRID_ID_HEADER = 'Doctor ID';
export const SCHEDULE_GRID_NAME_HEADER = 'Doctor Name';
export const scheduleTotalHeader = (code: string): string => `Total ${code}`;
/** Spec 02 §5: a schedule grid has at least 3 day headers. */
export const SCHEDULE_GRID_MIN_DAYS = 3;

/**
 * The formatted schedule of `assignment` (assignment[s][d − 1]: staff s's shift code on day d,
 * or null). Throws on an assignment that does not fit the problem (rows, days, unknown codes):
 * checkSchedule reports those; formatting one would hide them.
 */
export function formatSchedule(problem: ScheduleProblem, assignment: (string | null)[][], result: ScheduleResultSummary): ScheduleFormatted {
  const n = problem.horizon.days;
  const hours = new Map(problem.shift_types.map((shift) => [shift.code, shift.hours]));
  if (!Array.isArray(assignment) || assignment.length !== problem.staff.length) {
    throw new Error(`Cannot format the schedule: it has ${Array.isArray(assignment) ? assignment.length : 'no'} rows for ${problem.staff.length} staff members`);
  }
  const formatted: ScheduleFormatted = {
    days: Array.from({ length: n }, (_, d) => {
      const date = scheduleDate(problem.horizon, d + 1);
      return { day: d + 1, weekday: scheduleWeekday(problem.horizon, d + 1), ...(date === undefined ? {} : { date }) };
    }),
    shift_types: problem.shift_types.map((shift) => ({ code: shift.code, name: shift.name, hours: shift.hours })),
    staff: problem.staff.map((member, s) => {
      const row = assignment[s];
      if (!Array.isArray(row) || row.length !== n) {
        throw new Error(`Cannot format the schedule: ${member.name} (${member.id}) has ${Array.isArray(row) ? row.length : 'no'} days for a horizon of ${n}`);
      }
      const totals = Object.fromEntries(problem.shift_types.map((shift) => [shift.code, 0]));
      let worked = 0;
      row.forEach((code, d) => {
        if (code === null) return;
        if (!hours.has(code)) throw new Error(`Cannot format the schedule: ${member.name} (${member.id}) has the unknown shift code '${String(code)}' on day ${d + 1}`);
        totals[code] += 1;
        worked += hours.get(code) as number;
      });
      return { id: member.id, name: member.name, shifts: [...row], totals, hours: worked };
    }),
    uncovered: result.uncovered.filter((gap) => gap.missing > 0).map((gap) => ({ ...gap })),
    objective: result.objective,
    gap: result.gap,
    status: result.status,
  };
  // The contract is what the panel reads: a formatted schedule that does not pass it is a bug here.
  return ScheduleFormattedSchema.parse(formatted);
}

/**
 * The sheet grid of a formatted schedule: 'Doctor ID', 'Doctor Name', '1'..'N', then 'Total D',
 * 'Total N' ...; one row per staff member. A day off is null — the sheet's empty cell — rather
 * than '' (a text cell), so that COUNTA over a row counts the days worked. Totals are numbers.
 * Throws, with the reason, on a schedule that cannot make such a grid (no staff, fewer than 3
 * days, a row of the wrong length, an unknown shift code).
 */
export function scheduleGrid(formatted: ScheduleFormatted): { headers: string[]; rows: (string | number | null)[][] } {
  const parsed = ScheduleFormattedSchema.safeParse(formatted);
  if (!parsed.success) throw new Error(`Cannot make a schedule grid: the formatted schedule is not valid (${parsed.error.issues[0]?.message ?? 'unknown issue'})`);
  const { days, shift_types: shifts, staff } = parsed.data;
  if (staff.length === 0) throw new Error('Cannot make a schedule grid: the schedule has no staff');
  if (shifts.length === 0) throw new Error('Cannot make a schedule grid: the schedule has no shift types');
  if (days.length < SCHEDULE_GRID_MIN_DAYS) {
    throw new Error(`Cannot make a schedule grid: it has ${days.length} day(s); a schedule grid needs at least ${SCHEDULE_GRID_MIN_DAYS} day columns (spec 02 §5)`);
  }
  days.forEach((day, i) => {
    if (day.day !== i + 1) throw new Error(`Cannot make a schedule grid: day ${i + 1} is numbered ${day.day}; days must run 1..${days.length}`);
  });
  if (days.length > 99) throw new Error(`Cannot make a schedule grid: ${days.length} days; day headers have 1–2 digits (at most 99 days)`);
  const codes = new Set(shifts.map((shift) => shift.code));
  if (codes.size !== shifts.length) throw new Error('Cannot make a schedule grid: a shift code is given twice');
  const headers = [SCHEDULE_GRID_ID_HEADER, SCHEDULE_GRID_NAME_HEADER, ...days.map((day) => String(day.day)), ...shifts.map((shift) => scheduleTotalHeader(shift.code))];
  const rows = staff.map((member) => {
    if (member.shifts.length !== days.length) {
      throw new Error(`Cannot make a schedule grid: ${member.name} (${member.id}) has ${member.shifts.length} days; the schedule has ${days.length}`);
    }
    member.shifts.forEach((code, d) => {
      if (code !== null && !codes.has(code)) throw new Error(`Cannot make a schedule grid: ${member.name} (${member.id}) has the unknown shift code '${code}' on day ${d + 1}`);
    });
    // Totals are counted from the cells, so the grid never disagrees with itself.
    const totals = shifts.map((shift) => member.shifts.filter((code) => code === shift.code).length);
    return [member.id, member.name, ...member.shifts, ...totals];
  });
  return { headers, rows };
}
