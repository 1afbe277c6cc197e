import { z } from 'zod';
import { CATEGORY_NAMES, SHEET_NAME_MAX_LENGTH } from '../constants.js';
import { MESSAGES } from '../errors/messages.js';

/** < > : " / \ | ? * and control characters (spec 01 §5). */
// eslint-disable-next-line no-control-regex
const INVALID_NAME_CHARS = /[<>:"/\\|?*\u0000-\u001f\u007f]/;

/** The §5 sheet-name rule with its exact messages, as the first failing check; null when valid. */
export function sheetNameError(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return MESSAGES.sheetNameEmpty;
  if (trimmed.length > SHEET_NAME_MAX_LENGTH) return MESSAGES.sheetNameTooLong;
  if (INVALID_NAME_CHARS.test(trimmed)) return MESSAGES.sheetNameInvalid;
  return null;
}

/** A sheet name on the wire: trimmed, then checked by the §5 rule. */
export const SheetNameSchema = z.string({ error: MESSAGES.sheetNameEmpty }).transform((value, ctx) => {
  const error = sheetNameError(value);
  if (error) {
    ctx.addIssue({ code: 'custom', message: error });
    return z.NEVER;
  }
  return value.trim();
});

export const GROUP_NAME_MESSAGES = {
  empty: 'Group name cannot be empty',
  tooLong: 'Group name cannot exceed 100 characters',
} as const;

/** Rename of a group needs a non-empty trimmed name (§5); the length cap mirrors sheets. */
export const GroupNameSchema = z
  .string({ error: GROUP_NAME_MESSAGES.empty })
  .trim()
  .min(1, GROUP_NAME_MESSAGES.empty)
  .max(SHEET_NAME_MAX_LENGTH, GROUP_NAME_MESSAGES.tooLong);

/** Does `taken` (compared exactly) already hold `name`? */
function firstFree(candidates: (n: number) => string, taken: ReadonlySet<string>): string {
  for (let n = 0; ; n++) {
    const candidate = candidates(n);
    if (!taken.has(candidate)) return candidate;
  }
}

/** Unique sheet names get ' 1', ' 2', ... appended (§5). */
export function uniqueSheetName(base: string, taken: ReadonlySet<string>): string {
  return firstFree((n) => (n === 0 ? base : `${base} ${n}`), taken);
}

/** Unique group names get ' (1)', ' (2)', ... appended (§5). */
export function uniqueGroupName(base: string, taken: ReadonlySet<string>): string {
  return firstFree((n) => (n === 0 ? base : `${base} (${n})`), taken);
}

/** A duplicate is named with ' (Copy)', then made unique like any sheet name (§5). */
export function duplicateSheetName(name: string, taken: ReadonlySet<string>): string {
  return uniqueSheetName(`${name} (Copy)`, taken);
}

export type CategoryName = (typeof CATEGORY_NAMES)[number];

const CATEGORY_KEYWORDS: [CategoryName, RegExp][] = [
  ['Financial', /financ|budget|revenue|expense|cost|invoice|sales|profit|accounting|tax|payroll|price|bank/i],
  ['Project Management', /project|task|plan|roadmap|milestone|sprint|schedule|timeline|backlog/i],
  ['Operations', /operation|ops\b|inventory|logistic|supply|shipping|stock|roster|staff|process|warehouse/i],
  ['Analytics', /analytic|analysis|report|metric|dashboard|kpi|stat|insight|data/i],
];

function categoryOf(text: string): CategoryName | null {
  const exact = CATEGORY_NAMES.find((c) => c.toLowerCase() === text.trim().toLowerCase());
  if (exact) return exact;
  return CATEGORY_KEYWORDS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

/** Category of a sheet (§4): from its first tag, else from keywords of its name, else General. */
export function deriveCategory(name: string, tags: readonly string[] = []): CategoryName {
  return (tags.length > 0 ? categoryOf(tags[0]) : null) ?? categoryOf(name) ?? 'General';
}

/** Column labels A..Z, then AA, AB, ... (§3, §9). */
export function columnLabel(index: number): string {
  let label = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    label = String.fromCharCode(65 + ((n - 1) % 26)) + label;
  }
  return label;
}

/** Headers trimmed or padded with generated letter labels to `columns` (§4 header normalisation). */
export function normalizeHeaders(headers: readonly string[], columns: number): string[] {
  const out = headers.slice(0, columns);
  for (let i = out.length; i < columns; i++) out.push(columnLabel(i));
  return out;
}
