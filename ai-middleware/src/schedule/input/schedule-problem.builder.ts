import type { ScheduleProblemInput } from '@tessera/contracts';
import { REQUEST_SHIFT_CODES, type RequestShiftCode, type ScheduleRequest, type StaffNoun } from './schedule-request.js';

type StaffInput = ScheduleProblemInput['staff'][number];
type ShiftTypeInput = ScheduleProblemInput['shift_types'][number];

/** Generated staff: id prefix and name of each staff word ('DR01', 'Doctor 1'). */
const STAFF_NAMES: Record<StaffNoun, { prefix: string; name: string }> = {
  doctor: { prefix: 'DR', name: 'Doctor' },
  nurse: { prefix: 'NU', name: 'Nurse' },
  staff: { prefix: 'ST', name: 'Staff' },
  person: { prefix: 'P', name: 'Person' },
  employee: { prefix: 'EM', name: 'Employee' },
  worker: { prefix: 'WK', name: 'Worker' },
  physician: { prefix: 'PH', name: 'Physician' },
  resident: { prefix: 'RS', name: 'Resident' },
};

/** `count` people named after the request's staff word: DR01 'Doctor 1' … (ids padded to sort in order). */
export function generatedStaff(count: number, noun: StaffNoun): StaffInput[] {
  const { prefix, name } = STAFF_NAMES[noun];
  const width = Math.max(2, String(count).length);
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}${String(i + 1).padStart(width, '0')}`, name: `${name} ${i + 1}` }));
}

/**
 * The shift types a request names, with their hours: day and night only are two 12-hour
 * shifts (D 07:00, N 19:00), as rosters with two shifts run; otherwise three 8-hour shifts
 * (D 07:00, E 15:00, N 23:00).
 */
export function requestShiftTypes(codes: RequestShiftCode[]): ShiftTypeInput[] {
  const used = REQUEST_SHIFT_CODES.filter((code) => codes.includes(code));
  const twelveHours = used.length === 2 && used.includes('D') && used.includes('N');
  return used.map((code): ShiftTypeInput => {
    if (code === 'D') return { code, name: 'Day', start_hour: 7, hours: twelveHours ? 12 : 8, night: false };
    if (code === 'E') return { code, name: 'Evening', start_hour: 15, hours: 8, night: false };
    return { code, name: 'Night', start_hour: twelveHours ? 19 : 23, hours: twelveHours ? 12 : 8, night: true };
  });
}

/** The problem a parsed request stands for, with these staff (generated, or read from the sheet). */
export function buildScheduleProblem(request: ScheduleRequest, staff: StaffInput[]): ScheduleProblemInput {
  const codes = REQUEST_SHIFT_CODES.filter((code) => request.coverage[code] !== undefined || request.maxPerShift[code] !== undefined);
  const shiftTypes = requestShiftTypes(codes).map((shift) => {
    const max = request.maxPerShift[shift.code as RequestShiftCode];
    return max === undefined ? shift : { ...shift, max_per_staff: max };
  });
  const coverage: Record<string, number> = {};
  for (const code of codes) coverage[code] = request.coverage[code] ?? 0;
  return {
    staff: staff.map((member) => ({
      ...member,
      // The request's "at most / at least K shifts each" applies where the sheet gives no figure.
      ...(request.maxShifts !== undefined && member.max_shifts === undefined ? { max_shifts: request.maxShifts } : {}),
      ...(request.minShifts !== undefined && member.min_shifts === undefined ? { min_shifts: request.minShifts } : {}),
    })),
    horizon: { days: request.days, ...(request.startDate ? { start_date: request.startDate } : {}) },
    shift_types: shiftTypes,
    coverage: { default: coverage },
    rules: {
      ...(request.maxConsecutiveDays !== undefined ? { max_consecutive_days: request.maxConsecutiveDays } : {}),
      no_day_after_night: request.noDayAfterNight,
      min_rest_hours: request.minRestHours ?? 0,
      weekend_fairness: request.weekendFairness,
    },
  };
}
