import { type GridData, SCHEDULE_LIMITS, type ScheduleProblemInput } from '@tessera/contracts';

type StaffInput = ScheduleProblemInput['staff'][number];
type Cell = GridData[number][number];

/** A staff list read from a sheet, a staff list with a cell that cannot be read, or a sheet that is no staff list. */
export type StaffSheetOutcome = { staff: StaffInput[] } | { error: string } | null;

const ROLE = '(?:doctor|dr|staff|nurse|employee|worker|person|physician|resident|member)';
/** Headers are compared in lower case, with '_' and runs of spaces as one space. */
const COLUMNS = {
  id: new RegExp(`^(?:${ROLE} )?id$`),
  name: new RegExp(`^(?:(?:${ROLE}|full) )?name$`),
  skills: /^(?:skills?|qualifications?)$/,
  unavailable: /^(?:unavailable(?: days?)?|unavailability|days? off|not available(?: days?)?)$/,
  minShifts: /^min(?:imum|\.)? ?shifts$/,
  maxShifts: /^max(?:imum|\.)? ?shifts$/,
} as const;
type Column = keyof typeof COLUMNS;

/**
 * The staff listed on the active sheet (the README's "Schedule requests"): a header row with
 * an ID column (Doctor ID, Staff ID, ID) and/or a name column (Doctor Name, Name), and
 * optionally Skills (a comma or semicolon list), Unavailable days ('3, 4, 10', ranges '5-7'),
 * Min shifts and Max shifts. Blank rows are skipped; a cell that cannot be read is an error
 * naming its row (1 = the first row under the headers) and column. A sheet without an ID or
 * name column is no staff list (null). `days`, when known, bounds the unavailable days.
 */
export function readStaffSheet(headers: string[], rows: GridData, days?: number): StaffSheetOutcome {
  const at: Partial<Record<Column, number>> = {};
  headers.forEach((header, index) => {
    const name = header.toLowerCase().replace(/[_\s]+/g, ' ').trim();
    for (const column of Object.keys(COLUMNS) as Column[]) {
      if (at[column] === undefined && COLUMNS[column].test(name)) at[column] = index;
    }
  });
  if (at.id === undefined && at.name === undefined) return null;

  const staff: StaffInput[] = [];
  const rowOfId = new Map<string, number>();
  const lastDay = days ?? SCHEDULE_LIMITS.maxDays;
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index]!;
    if (row.every((cell) => text(cell) === '')) continue;
    const rowNumber = index + 1;
    const where = (column: Column) => `Row ${rowNumber}, column "${headers[at[column]!]}"`;
    const cell = (column: Column): string => (at[column] === undefined ? '' : text(row[at[column]!]));

    const name = cell('name');
    let id = cell('id');
    if (at.id !== undefined && !id) return { error: `${where('id')}: no ID; every person listed needs one` };
    if (at.id === undefined) {
      if (!name) continue;
      id = `S${String(staff.length + 1).padStart(2, '0')}`;
    }
    if (id.length > 64) return { error: `${where('id')}: an ID has at most 64 characters` };
    if (name.length > 120) return { error: `${where('name')}: a name has at most 120 characters` };
    const seen = rowOfId.get(id);
    if (seen !== undefined) return { error: `${where('id')}: ${id} is also on row ${seen}` };
    rowOfId.set(id, rowNumber);

    const member: StaffInput = { id, name: name || id };
    const skills = cell('skills').split(/[,;]/).map((s) => s.trim()).filter(Boolean);
    if (skills.length > SCHEDULE_LIMITS.maxSkills) return { error: `${where('skills')}: at most ${SCHEDULE_LIMITS.maxSkills} skills` };
    if (skills.some((s) => s.length > 40)) return { error: `${where('skills')}: a skill has at most 40 characters` };
    if (skills.length) member.skills = skills;

    const unavailable = dayList(cell('unavailable'), lastDay);
    if (typeof unavailable === 'string') return { error: `${where('unavailable')}: ${unavailable}` };
    if (unavailable.length) member.unavailable_days = unavailable;

    for (const [column, field] of [['minShifts', 'min_shifts'], ['maxShifts', 'max_shifts']] as const) {
      const raw = cell(column);
      if (!raw) continue;
      if (!/^\d+(?:\.0+)?$/.test(raw) || Number(raw) > SCHEDULE_LIMITS.maxDays) {
        return { error: `${where(column)}: "${raw}" is not a whole number of shifts from 0 to ${SCHEDULE_LIMITS.maxDays}` };
      }
      member[field] = Number(raw);
    }
    if (member.min_shifts !== undefined && member.max_shifts !== undefined && member.min_shifts > member.max_shifts) {
      return { error: `${where('minShifts')}: ${member.min_shifts} is more than the ${member.max_shifts} of "${headers[at.maxShifts!]}"` };
    }
    staff.push(member);
    if (staff.length > SCHEDULE_LIMITS.maxStaff) return { error: `the sheet lists more than ${SCHEDULE_LIMITS.maxStaff} people; at most ${SCHEDULE_LIMITS.maxStaff} can be scheduled at once` };
  }
  if (!staff.length) return { error: 'the sheet has staff columns but nobody listed under them' };
  return { staff };
}

function text(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  return String(cell).trim();
}

/** '3, 4, 10' or '5-7; 12' → the sorted days, or what is wrong with the text. */
function dayList(raw: string, lastDay: number): number[] | string {
  const days = new Set<number>();
  for (const part of raw.split(/[,;]/).map((p) => p.trim()).filter(Boolean)) {
    const range = /^(\d+)\s*(?:-|–|to)\s*(\d+)$/.exec(part);
    const single = /^\d+(?:\.0+)?$/.test(part) ? Number(part) : undefined;
    const [from, to] = range ? [Number(range[1]), Number(range[2])] : [single, single];
    if (from === undefined || to === undefined || from < 1 || to < from) {
      return `"${part}" is not a day or a range of days (write "3, 4, 10" or "5-7")`;
    }
    if (to > lastDay) return `day ${to} is after the ${lastDay} days being scheduled`;
    for (let day = from; day <= to; day += 1) days.add(day);
  }
  return [...days].sort((a, b) => a - b);
}
