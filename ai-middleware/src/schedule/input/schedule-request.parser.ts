import { SCHEDULE_LIMITS } from '@tessera/contracts';
import type { RequestShiftCode, ScheduleRequest, ScheduleRequestOutcome, StaffNoun } from './schedule-request.js';

/**
 * Parses a staff-scheduling request in English, without a model (the README's "Schedule
 * requests" lists the grammar with examples): 'schedule 12 doctors over 28 days, 2 on day
 * shift and 1 on night shift, at most 6 days in a row'. A text that is not about scheduling
 * staff gives null (it may be a sheet request); one that is, but lacks what a solve needs
 * (how many people, how many days, how many on each shift), gives an error saying what to add.
 * Each phrase understood is cut out of the text before the next is looked for, so the "6 days"
 * of "at most 6 days in a row" is never taken for the horizon.
 */
export function parseScheduleRequest(instruction: string): ScheduleRequestOutcome {
  let text = ` ${instruction.toLowerCase().replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim()} `;
  if (!isScheduleRequest(text)) return null;

  /** Finds `pattern` (global) in what is left of the text, removes each match, and returns them. */
  const take = (pattern: RegExp): RegExpExecArray[] => {
    const found = [...text.matchAll(pattern)];
    if (found.length) text = text.replace(pattern, ' ; ');
    return found;
  };

  const request: ScheduleRequest = {
    staffCount: null,
    noun: 'doctor',
    days: 0,
    coverage: {},
    maxPerShift: {},
    weekendFairness: false,
    noDayAfterNight: true,
  };

  // Start date: 'starting 2026-12-01', 'from 2026-12-01', or a bare ISO date.
  for (const match of take(/(?:\b(?:starting|start(?:s|ing)?|beginning|begins?|from|as of)\s+(?:on\s+|at\s+)?)?\b(\d{4}-\d{2}-\d{2})\b/g)) {
    const date = match[1]!;
    if (!isRealDate(date)) return { error: `${date} is not a date: give the start as YYYY-MM-DD, e.g. "starting 2026-12-01"` };
    request.startDate = date;
  }

  // Days in a row: 'at most 6 days in a row', 'no more than 5 consecutive working days', 'max 6 consecutive days'.
  for (const match of take(new RegExp(`${LIMIT}\\s+${NUM}\\s+(?:consecutive\\s+)?(?:working\\s+|work\\s+)?days?\\s+(?:in\\s+a\\s+row|consecutively|straight|running)`, 'g'))) {
    request.maxConsecutiveDays = count(match[2]!);
  }
  for (const match of take(new RegExp(`${LIMIT}\\s+${NUM}\\s+consecutive\\s+(?:working\\s+|work\\s+)?days?\\b`, 'g'))) {
    request.maxConsecutiveDays = count(match[2]!);
  }
  for (const match of take(new RegExp(`\\bmax(?:imum)?\\s+(?:of\\s+)?consecutive\\s+(?:working\\s+|work\\s+)?days?\\s*(?::|=|of|is)?\\s*${NUM}`, 'g'))) {
    request.maxConsecutiveDays = count(match[1]!);
  }

  // Shifts of a type per person: 'at most 8 nights each', 'no more than 10 night shifts per doctor', 'at most 12 day shifts'.
  for (const match of take(new RegExp(`${LIMIT}\\s+${NUM}\\s+(?:${KIND_SHIFTS})${EACH}`, 'g'))) {
    request.maxPerShift[shiftCode((match[3] ?? match[4])!)] = count(match[2]!);
  }

  // Shifts per person: 'at most 20 shifts each', 'at least 10 shifts per person', 'minimum of 8 shifts'.
  for (const match of take(new RegExp(`${LIMIT}\\s+${NUM}\\s+(?:working\\s+)?shifts${EACH}`, 'g'))) request.maxShifts = count(match[2]!);
  for (const match of take(new RegExp(`${AT_LEAST}\\s+${NUM}\\s+(?:working\\s+)?shifts${EACH}`, 'g'))) request.minShifts = count(match[2]!);

  // Rest: 'no minimum rest', 'at least 11 hours rest', 'minimum rest 11 hours', '11 hours of rest between shifts'.
  if (take(/\bno\s+(?:minimum\s+|min\.?\s+)?rest(?:\s+(?:rule|requirement|period))?s?\b/g).length) request.minRestHours = 0;
  for (const match of take(new RegExp(`\\bmin(?:imum|\\.)?\\s+(?:of\\s+)?rest\\s*(?:of|:|=|is)?\\s*${NUM}\\s*(?:hours?|hrs?|h)\\b`, 'g'))) {
    request.minRestHours = count(match[1]!);
  }
  for (const match of take(new RegExp(`(?:${AT_LEAST}\\s+)?${NUM}\\s*(?:hours?|hrs?|h)\\s+(?:of\\s+)?rest\\b(?:\\s+between\\s+shifts)?`, 'g'))) {
    request.minRestHours = count(match[2]!);
  }

  // Weekend fairness: 'weekend fairness', 'fair weekends', 'share weekends fairly', 'weekends shared evenly'.
  if (take(/\b(?:weekend\s+fairness|fair(?:ly\s+shared)?\s+weekends?|even(?:ly\s+shared)?\s+weekends?|(?:share|spread|split|balance)\s+(?:the\s+)?weekends?(?:\s+(?:fairly|evenly))?|weekends?\s+(?:shared\s+|spread\s+|split\s+)?(?:fairly|evenly|fair))\b/g).length) {
    request.weekendFairness = true;
  }

  // A day shift straight after a night: 'allow day after night', 'day shift after night shift allowed'.
  if (take(/\b(?:allow(?:ing)?\s+(?:a\s+)?day(?:\s+shifts?)?\s+(?:right\s+|straight\s+)?after\s+(?:a\s+)?nights?(?:\s+shifts?)?|day(?:\s+shifts?)?\s+(?:right\s+|straight\s+)?after\s+(?:a\s+)?nights?(?:\s+shifts?)?\s+(?:is\s+|are\s+)?(?:allowed|ok|fine))\b/g).length) {
    request.noDayAfterNight = false;
  }

  // Coverage: '2 on day shift', '1 doctor on the night shift', '2 day shifts', 'night shift: 1', 'evening shift needs 2'.
  for (const match of take(new RegExp(`${NUM}\\s+(?:${STAFF_WORDS}\\s+)?(?:on|at|working|doing|covering|per)\\s+(?:the\\s+|each\\s+|every\\s+|a\\s+)?(${KIND})(?:\\s*-?\\s*shifts?|s)?\\b`, 'g'))) {
    request.coverage[shiftCode(match[2]!)] = count(match[1]!);
  }
  for (const match of take(new RegExp(`${NUM}\\s+(?:${STAFF_WORDS}\\s+)?(${KIND})\\s*-?\\s*shifts?\\b`, 'g'))) {
    request.coverage[shiftCode(match[2]!)] = count(match[1]!);
  }
  for (const match of take(new RegExp(`\\b(${KIND})\\s*-?\\s*shifts?\\s*(?::|=|of|needs?|requires?|with|takes?)\\s*${NUM}\\b`, 'g'))) {
    request.coverage[shiftCode(match[1]!)] = count(match[2]!);
  }

  // Staff: '12 doctors', '8 staff members', 'twelve nurses'; none: the staff on the active sheet.
  const staff = take(new RegExp(`${NUM}\\s+(?:[a-z-]+\\s+)?(${STAFF_WORDS})\\b`, 'g'));
  const staffNoun = staff[0]?.[2] ?? /\b(doctors?|nurses?|staff|people|persons?|employees?|workers?|physicians?|residents?)\b/.exec(text)?.[1];
  if (staffNoun) request.noun = nounOf(staffNoun);
  if (staff[0]) request.staffCount = count(staff[0][1]!);

  // Horizon: 'over 28 days', 'for 2 weeks', 'a 14-day schedule', 'for a fortnight'.
  for (const match of take(new RegExp(`${NUM}\\s*-?\\s*(days?|weeks?)\\b`, 'g'))) {
    request.days = count(match[1]!) * (match[2]!.startsWith('week') ? 7 : 1);
  }
  for (const match of take(/\b(?:a|one)\s+(week|fortnight)\b|\bfortnight\b/g)) request.days = match[1] === 'week' ? 7 : 14;

  if (request.staffCount !== null) {
    if (request.staffCount < 1) return { error: 'the staff count must be at least 1: say "schedule 12 doctors ..."' };
    if (request.staffCount > SCHEDULE_LIMITS.maxStaff) return { error: `at most ${SCHEDULE_LIMITS.maxStaff} staff can be scheduled at once; ${request.staffCount} were asked for` };
  }
  if (!request.days) return { error: 'no horizon: say how many days to schedule, e.g. "over 28 days" or "for 2 weeks"' };
  if (request.days > SCHEDULE_LIMITS.maxDays) return { error: `at most ${SCHEDULE_LIMITS.maxDays} days can be scheduled at once; ${request.days} were asked for` };
  if (!Object.keys(request.coverage).length) {
    return { error: 'no coverage: say how many people each shift needs, e.g. "2 on day shift and 1 on night shift"' };
  }
  if (request.maxConsecutiveDays === 0) return { error: '"at most 0 days in a row" leaves nobody able to work: give at least 1' };
  if (request.minShifts !== undefined && request.maxShifts !== undefined && request.minShifts > request.maxShifts) {
    return { error: `at least ${request.minShifts} shifts each is more than the at most ${request.maxShifts} shifts each` };
  }
  return { request };
}

/** Numbers as digits or as words up to thirty. */
const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20, thirty: 30,
};
const NUM = `\\b(\\d{1,4}|${Object.keys(NUMBER_WORDS).join('|')})`;
const LIMIT = '\\b(at\\s+most|no\\s+more\\s+than|not\\s+more\\s+than|up\\s+to|max(?:imum)?(?:\\s+of)?|a\\s+maximum\\s+of|limit(?:ed)?\\s+(?:of|to))';
const AT_LEAST = '\\b(at\\s+least|no\\s+(?:less|fewer)\\s+than|min(?:imum)?(?:\\s+of)?|a\\s+minimum\\s+of)';
const STAFF_WORDS = '(?:doctors?|nurses?|staff(?:\\s+members?)?|people|persons?|employees?|workers?|physicians?|residents?|members?)';
/** Shift names: day (also morning, early), evening (also late), night. */
const KIND = 'day|morning|early|evening|late|night';
/** A shift type counted per person: '8 nights', '10 night shifts', '12 day shifts' (bare 'days' is the horizon's word); the word is group 3 or 4 after LIMIT and NUM. */
const KIND_SHIFTS = '(night|evening|late|early|morning)s\\b|(day|morning|early|evening|late|night)\\s*-?\\s*shifts\\b';
/** 'each', 'per doctor', 'per person', 'apiece', 'a head', or nothing. */
const EACH = `(?:\\s+(?:each|apiece|a\\s+head|per\\s+head|(?:per|for\\s+each|for\\s+every|a)\\s+(?:${STAFF_WORDS}|person|head)))?`;

function count(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word]!;
}

function shiftCode(kind: string): RequestShiftCode {
  if (/^(?:day|morning|early)/.test(kind)) return 'D';
  if (/^(?:evening|late)/.test(kind)) return 'E';
  return 'N';
}

function nounOf(word: string): StaffNoun {
  const stem = word.replace(/s$/, '');
  if (stem === 'people' || stem === 'person') return 'person';
  if (stem === 'member' || stem.startsWith('staff')) return 'staff';
  return stem as StaffNoun;
}

/**
 * Schedule requests speak of scheduling (schedule, roster, rota) people or shifts; a sheet
 * request naming a "Schedule" column has neither a staff word nor shifts around it.
 */
function isScheduleRequest(text: string): boolean {
  const schedules = /\b(?:schedul(?:e|es|ing)|roster(?:ing)?|rota|timetable)\b/.test(text);
  const staff = new RegExp(`\\b${STAFF_WORDS}\\b`).test(text);
  const shifts = /\bshifts?\b/.test(text);
  return schedules && (staff || shifts);
}

function isRealDate(date: string): boolean {
  const at = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === date;
}
