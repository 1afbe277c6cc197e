/** What a schedule request in English asks for (schedule-request.parser.ts), before the staff are known. */

/** The shift types the builtin assistant knows by name: day, evening and night. */
export const REQUEST_SHIFT_CODES = ['D', 'E', 'N'] as const;
export type RequestShiftCode = (typeof REQUEST_SHIFT_CODES)[number];

/** The staff word of the request ("12 nurses"): it names the generated staff ('NU01', 'Nurse 1'). */
export type StaffNoun = 'doctor' | 'nurse' | 'staff' | 'person' | 'employee' | 'worker' | 'physician' | 'resident';

export interface ScheduleRequest {
  /** How many to generate, or null: the staff listed on the active sheet. */
  staffCount: number | null;
  noun: StaffNoun;
  days: number;
  startDate?: string;
  /** People needed on each shift, every day. */
  coverage: Partial<Record<RequestShiftCode, number>>;
  /** Most shifts of a type one person may work over the horizon ("at most 8 nights each"). */
  maxPerShift: Partial<Record<RequestShiftCode, number>>;
  maxConsecutiveDays?: number;
  maxShifts?: number;
  minShifts?: number;
  minRestHours?: number;
  weekendFairness: boolean;
  noDayAfterNight: boolean;
}

/** A request, a schedule request too incomplete to solve (the error says what to add), or not a schedule request at all. */
export type ScheduleRequestOutcome = { request: ScheduleRequest } | { error: string } | null;
