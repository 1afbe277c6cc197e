import { type GridData, type ScheduleProblem, ScheduleProblemSchema } from '@tessera/contracts';
import { z } from 'zod';
import type { ChatMessage } from '../../providers/provider.js';
import { readStaffSheet } from './staff-sheet.js';

/** The fence of a model's schedule problem: ```schedule-json. */
export const SCHEDULE_JSON_FENCE = 'schedule-json';

/** The problem's JSON Schema as the model is shown it (defaults may be left out: the input side). */
const PROBLEM_JSON_SCHEMA = JSON.stringify(z.toJSONSchema(ScheduleProblemSchema, { io: 'input' }));

/**
 * What the model is told on top of the code contract (code-prompt.ts): a staff-scheduling
 * request is answered with the problem as JSON, not with code. One call decides: the reply
 * holds either a ```python block or a ```schedule-json block (README "Schedule requests").
 */
export const SCHEDULE_PROMPT = `Staff scheduling: when the instruction asks to schedule or roster people on shifts (a rota), do not write Python.
Reply instead with one \`\`\`${SCHEDULE_JSON_FENCE} code block holding a JSON object that follows this JSON Schema; a solver (HiGHS) makes the schedule from it:
${PROBLEM_JSON_SCHEMA}
Days are numbered 1..horizon.days; coverage.default gives how many people each shift code needs every day (by_weekday and by_day override it).
Usual shift types: with day and night only, D (start_hour 7, hours 12) and N (start_hour 19, hours 12, night true); with three, D 7, E 15 and N 23, 8 hours each.
Staff: give "id" and "name" for each person (generate them, e.g. "DR01" and "Doctor 1", when only a count is given).
When the people to schedule are listed on the sheet, leave "staff" out: every row of the sheet is read for them (its ID, Name, Skills, Unavailable days, Min shifts and Max shifts columns).
Reply with the \`\`\`${SCHEDULE_JSON_FENCE} block and nothing else.`;

/** The JSON text of a reply's ```schedule-json block, or null when it has none (the reply is code). */
export function extractScheduleJson(reply: string): string | null {
  const match = new RegExp(`\`\`\`[ \\t]*${SCHEDULE_JSON_FENCE}[^\\n]*\\n([\\s\\S]*?)(?:\`\`\`|$)`, 'i').exec(reply);
  return match ? match[1]!.trim() : null;
}

/**
 * The model's JSON as a problem, checked with ScheduleProblemSchema; staff left out (or an
 * empty list) are the staff listed on the sheet. On failure, the text to send back to the
 * model: the JSON error, or each zod issue with its path.
 */
export function parseScheduleJson(json: string, sheet: { headers: string[]; rows: GridData }): { problem: ScheduleProblem } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return { error: `The ${SCHEDULE_JSON_FENCE} block is not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    if (object.staff === undefined || (Array.isArray(object.staff) && object.staff.length === 0)) {
      const days = typeof (object.horizon as { days?: unknown } | undefined)?.days === 'number' ? (object.horizon as { days: number }).days : undefined;
      const listed = readStaffSheet(sheet.headers, sheet.rows, days);
      if (listed && 'error' in listed) return { error: `"staff" was left out, and the staff list on the sheet cannot be read: ${listed.error}` };
      if (listed) value = { ...object, staff: listed.staff };
    }
  }
  const problem = ScheduleProblemSchema.safeParse(value);
  if (problem.success) return { problem: problem.data };
  const issues = problem.error.issues.map((issue) => `- ${issue.path.length ? issue.path.join('.') : '(the whole object)'}: ${issue.message}`);
  return { error: `The ${SCHEDULE_JSON_FENCE} problem does not follow the schema:\n${issues.join('\n')}` };
}

/** The turn that sends an invalid problem back to the model (the fix loop). */
export function scheduleFixRequest(error: string): ChatMessage {
  return {
    role: 'user',
    content: `${error}\nFix it. Reply with the whole corrected JSON object in one \`\`\`${SCHEDULE_JSON_FENCE} code block, and nothing else.`,
  };
}
