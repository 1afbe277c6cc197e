import type { ShiftType, StaffMember } from '@tessera/contracts';

/**
 * How the checker's messages and the suggested actions name people, days, shifts and counts,
 * so that every text reads the same way ('Doctor Ana (D3) works 7 days in a row (days 4–10)').
 * The schedule grid calls staff doctors (its headers are Doctor ID and Doctor Name, spec 02 §5),
 * so the texts do too.
 */

/** 'Doctor Ana (D3)'. */
export const doctorLabel = (member: Pick<StaffMember, 'id' | 'name'>): string => `Doctor ${member.name} (${member.id})`;

/** 'N (Night)'. */
export const shiftLabel = (shift: Pick<ShiftType, 'code' | 'name'>): string => `${shift.code} (${shift.name})`;

/** '1 doctor', '3 doctors'; an irregular plural may be given. */
export function count(n: number, word: string, plural = `${word}s`): string {
  return `${n} ${n === 1 ? word : plural}`;
}

/** 'a doctor' for one, else '4 doctors' (suggestions read better that way). */
export function some(n: number, word: string, plural = `${word}s`): string {
  return n === 1 ? `a ${word}` : count(n, word, plural);
}

/** 'a, b and c'. */
export function joinAnd(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** 'a, b, or c' (the suggestions' choices). */
export function joinOr(items: string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} or ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, or ${items[items.length - 1]}`;
}

/** Days as short ranges: 'day 3', 'days 4–10', 'days 2, 5 and 9–11' (sorted, duplicates dropped). */
export function dayList(days: number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    if (j === i) ranges.push(String(sorted[i]));
    else if (j === i + 1) ranges.push(String(sorted[i]), String(sorted[j]));
    else ranges.push(`${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  const single = sorted.length === 1;
  return `${single ? 'day' : 'days'} ${joinAnd(ranges)}`;
}

/** A number of hours as short text: 8, 7.5, 0.25 (no float noise such as 7.499999). */
export const hoursText = (hours: number): string => String(Math.round(hours * 100) / 100);

/** Weekday as a reader writes it: 'sat' → 'Sat'. */
export const weekdayText = (weekday: string): string => weekday.charAt(0).toUpperCase() + weekday.slice(1);
