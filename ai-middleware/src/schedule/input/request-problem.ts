import { type GridData, type ScheduleProblem, ScheduleProblemSchema } from '@tessera/contracts';
import { describeIssues } from '../../http/validate-input.js';
import { buildScheduleProblem, generatedStaff } from './schedule-problem.builder.js';
import { parseScheduleRequest } from './schedule-request.parser.js';
import { readStaffSheet } from './staff-sheet.js';

/** The problem of a request in English (the builtin assistant), or why there is none; null: not a schedule request. */
export type RequestProblemOutcome = { problem: ScheduleProblem; staffFrom: 'request' | 'sheet' } | { error: string } | null;

export const NO_STAFF_COUNT_MESSAGE = 'no staff count: say "schedule 12 doctors ..." or list the staff on the sheet (a Doctor ID or Name column)';

/**
 * A schedule request's problem: the request parsed (schedule-request.parser.ts) with its staff
 * generated ('12 doctors'), or, when it gives no count, the staff listed on the active sheet
 * (staff-sheet.ts). The result is checked against ScheduleProblemSchema like any other input.
 */
export function requestProblem(instruction: string, sheet: { headers: string[]; rows: GridData }): RequestProblemOutcome {
  const parsed = parseScheduleRequest(instruction);
  if (!parsed || 'error' in parsed) return parsed;
  const { request } = parsed;
  let staffFrom: 'request' | 'sheet' = 'request';
  let staff;
  if (request.staffCount !== null) {
    staff = generatedStaff(request.staffCount, request.noun);
  } else {
    const listed = readStaffSheet(sheet.headers, sheet.rows, request.days);
    if (!listed) return { error: NO_STAFF_COUNT_MESSAGE };
    if ('error' in listed) return { error: `The staff list on the sheet: ${listed.error}` };
    staff = listed.staff;
    staffFrom = 'sheet';
  }
  const problem = ScheduleProblemSchema.safeParse(buildScheduleProblem(request, staff));
  if (!problem.success) return { error: `The schedule problem is not valid: ${describeIssues(problem.error)}` };
  return { problem: problem.data, staffFrom };
}
