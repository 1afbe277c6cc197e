import { requiredHeadcount, type ScheduleProblem, type ShiftType, type StaffMember } from '@tessera/contracts';
import { count, dayList, doctorLabel, hoursText, joinAnd, joinOr, shiftLabel, some } from './schedule-words.js';
import { hasSkillFor, weekendDays, weekendShiftCap } from './weekend-fairness.js';

/**
 * The suggested actions of the Operation Failed panel (issue 8; spec 02 §2, §4): why a problem
 * has no schedule, as conflicting requirements WITH NUMBERS, each followed by what to change —
 * '1 doctor per night for 28 nights needs 28 doctor-nights; 3 doctors × at most 8 nights = 24 —
 * allow at least 10 nights each, add a doctor, or lower night coverage.'
 *
 * Every analysis is a counting bound the schedule cannot beat, so a shortfall it finds is
 * certain; the solver may still fail on combinations no single bound sees, and then one generic
 * action names the tightest requirements. Actions come largest shortfall first, at most five.
 */

export const MAX_SUGGESTED_ACTIONS = 5;

interface Finding {
  /** How many shifts (or doctors) the requirement is short by: the severity. */
  shortfall: number;
  text: string;
}

/** How tight a requirement is when nothing falls short (for the generic action). */
interface Tightness {
  ratio: number;
  text: string;
}

export function explainInfeasibility(problem: ScheduleProblem): string[] {
  const facts = new Facts(problem);
  const findings = [
    ...shiftTypeShortfalls(facts),
    ...overallShortfall(facts),
    ...dayShortfalls(facts),
    ...skillShortfalls(facts),
    ...successionShortfalls(facts),
    ...minimumShiftShortfalls(facts),
    ...weekendShortfall(facts),
  ];
  if (findings.length === 0) return [genericAction(facts)];
  const seen = new Set<string>();
  return findings
    .sort((a, b) => b.shortfall - a.shortfall)
    .filter((f) => !seen.has(f.text) && seen.add(f.text))
    .slice(0, MAX_SUGGESTED_ACTIONS)
    .map((f) => f.text);
}

/** What every analysis reads: demand per day and shift, who is available when, and each person's bounds. */
class Facts {
  readonly days: number;
  readonly staff: StaffMember[];
  /** required[d − 1][t]: headcount of shift type t on day d. */
  readonly required: number[][];
  /** available[s][d − 1]: staff s may work on day d. */
  readonly available: boolean[][];
  /** Most days staff s can work: available days, fewer with a limit of days in a row. */
  readonly workable: number[];
  /** Days a person with no unavailability can work with the limit of days in a row: N − floor(N / (K + 1)). */
  readonly fullWorkable: number;
  readonly totalDemand: number;

  constructor(readonly problem: ScheduleProblem) {
    this.days = problem.horizon.days;
    this.staff = problem.staff;
    const k = problem.rules.max_consecutive_days;
    this.required = Array.from({ length: this.days }, (_, d) => problem.shift_types.map((t) => requiredHeadcount(problem, d + 1, t.code)));
    this.available = this.staff.map((m) => Array.from({ length: this.days }, (_, d) => !m.unavailable_days.includes(d + 1)));
    this.workable = this.available.map((row) => workableDays(row, k));
    this.fullWorkable = workableDays(new Array<boolean>(this.days).fill(true), k);
    this.totalDemand = sum(this.required.map(sum));
  }

  get shifts(): ShiftType[] {
    return this.problem.shift_types;
  }

  availableCount(s: number): number {
    return this.available[s].filter(Boolean).length;
  }

  /** Staff available on day d (1-based). */
  availableOn(day: number): number[] {
    return this.staff.flatMap((_, s) => (this.available[s][day - 1] ? [s] : []));
  }
}

/**
 * Most days one can work among `available` days with at most k in a row: each run of L
 * available days allows L − floor(L / (k + 1)) (one day off in every k + 1).
 */
export function workableDays(available: boolean[], k: number | undefined): number {
  let total = 0;
  let run = 0;
  const bound = (length: number) => (k === undefined ? length : length - Math.floor(length / (k + 1)));
  for (const day of available) {
    if (day) run++;
    else {
      total += bound(run);
      run = 0;
    }
  }
  return total + bound(run);
}

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

/** How texts name a shift type's units: night → 'night', 'nights', 'doctor-nights'; Day → 'day shift', 'day shifts'. */
function units(shift: ShiftType): { one: string; many: string; demand: string; span: string; coverage: string } {
  const base = shift.name.toLowerCase().replace(/\s+shift$/, '');
  if (shift.night || base === 'night') return { one: 'night', many: 'nights', demand: 'doctor-nights', span: 'night', coverage: `${base} coverage` };
  return { one: `${base} shift`, many: `${base} shifts`, demand: `${base} shifts`, span: 'day', coverage: `${base} coverage` };
}

/** The limit that sets a person's most shifts of a type: 'days' when it is just one shift a day over the days it is needed. */
type Bound = 'max_per_staff' | 'max_shifts' | 'available' | 'days' | 'consecutive';

/** Per shift type: demand over the horizon vs what the staff allowed to work it can take. */
function shiftTypeShortfalls(facts: Facts): Finding[] {
  const { problem, staff, days } = facts;
  const k = problem.rules.max_consecutive_days;
  return facts.shifts.flatMap((shift, t): Finding[] => {
    const demandDays: number[] = [];
    for (let d = 1; d <= days; d++) if (facts.required[d - 1][t] > 0) demandDays.push(d);
    const demand = sum(demandDays.map((d) => facts.required[d - 1][t]));
    if (demand === 0) return [];
    const eligible = staff.flatMap((m, s) => (hasSkillFor(m, shift) ? [s] : []));
    const caps = eligible.map((s) => personShiftCap(facts, s, shift, demandDays));
    const capacity = sum(caps.map((c) => c.cap));
    if (demand <= capacity) return [];
    const u = units(shift);
    const headcounts = new Set(demandDays.map((d) => facts.required[d - 1][t]));
    const need =
      headcounts.size === 1
        ? `${count([...headcounts][0], 'doctor')} per ${u.one} for ${count(demandDays.length, u.span)} needs ${demand} ${u.demand}`
        : `${capitalize(u.coverage)} needs ${demand} ${u.demand} over ${count(demandDays.length, u.span)}`;
    const who = shift.skill === undefined ? '' : ` with the skill '${shift.skill}'`;
    let have: string;
    if (eligible.length === 0) have = `no doctor has the skill '${shift.skill}'`;
    else if (caps.every((c) => c.cap === caps[0].cap && c.bound === caps[0].bound)) {
      const c = caps[0];
      const each =
        c.bound === 'max_per_staff'
          ? `at most ${c.cap} ${u.many}`
          : c.bound === 'max_shifts'
            ? `at most ${c.cap} shifts (max shifts)`
            : c.bound === 'available'
              ? `${count(c.cap, 'available day')}`
              : c.bound === 'days'
                ? `${count(c.cap, u.span)} (one shift a day)`
                : c.cap === facts.fullWorkable
                  ? `at most ${c.cap} working days (${consecutiveFormula(facts)})`
                  : `at most ${c.cap} working days (their available days, at most ${k} in a row)`;
      have = `${count(eligible.length, 'doctor')}${who} × ${each} = ${capacity}`;
    } else {
      const listed = eligible.slice(0, 4).map((s, i) => `${staff[s].name} ${caps[i].cap}`);
      const more = eligible.length > 4 ? `, ${eligible.length - 4} more` : '';
      have = `the ${count(eligible.length, 'doctor')}${who} can take at most ${capacity} (${listed.join(', ')}${more})`;
    }
    const shortfall = demand - capacity;
    const bounds = new Set(caps.map((c) => c.bound));
    const actions: string[] = [];
    if (eligible.length > 0) {
      const each = Math.ceil(demand / eligible.length);
      if (bounds.has('max_per_staff')) actions.push(`allow at least ${each} ${u.many} each`);
      if (bounds.has('max_shifts')) actions.push(`raise max shifts to at least ${each}`);
      if (bounds.has('available')) actions.push('free some unavailable days');
      if (bounds.has('consecutive')) actions.push(`allow more than ${k} days in a row`);
    }
    if (shift.skill !== undefined && eligible.length < staff.length) actions.push(`give the skill '${shift.skill}' to more doctors`);
    const perNew = Math.min(shift.max_per_staff ?? Infinity, demandDays.length, facts.fullWorkable);
    actions.push(`add ${some(Math.max(1, Math.ceil(shortfall / Math.max(1, perNew))), 'doctor')}${who}`);
    actions.push(`lower ${u.coverage}`);
    return [{ shortfall, text: `${need}; ${have} — ${joinOr(actions)}.` }];
  });
}

/** One person's most shifts of one type, and the limit that sets it. */
function personShiftCap(facts: Facts, s: number, shift: ShiftType, demandDays: number[]): { cap: number; bound: Bound } {
  const member = facts.staff[s];
  const options: { cap: number; bound: Bound }[] = [
    { cap: shift.max_per_staff ?? Infinity, bound: 'max_per_staff' },
    { cap: member.max_shifts ?? Infinity, bound: 'max_shifts' },
    {
      cap: demandDays.filter((d) => facts.available[s][d - 1]).length,
      bound: demandDays.every((d) => facts.available[s][d - 1]) ? 'days' : 'available',
    },
    { cap: facts.workable[s], bound: 'consecutive' },
  ];
  // The first of the smallest: a limit the user set wins over one that follows from the days.
  return options.reduce((best, o) => (o.cap < best.cap ? o : best));
}

/** 'at most 6 days in a row: 28 − floor(28 / 7)'. */
function consecutiveFormula(facts: Facts): string {
  const k = facts.problem.rules.max_consecutive_days;
  return `at most ${k} days in a row: ${facts.days} − floor(${facts.days} / ${(k ?? 0) + 1})`;
}

/**
 * All shifts together vs what everyone can work: the sum of max shifts, of available days, and
 * the bound of days in a row (N − floor(N / (K + 1)) of N days). Only when more than one shift
 * type is needed: with one, the shift type's own analysis says the same.
 */
function overallShortfall(facts: Facts): Finding[] {
  const { problem, staff, days, totalDemand } = facts;
  const demanded = facts.shifts.filter((_, t) => facts.required.some((row) => row[t] > 0)).length;
  if (demanded < 2) return [];
  const caps = staff.map((m, s) => Math.min(m.max_shifts ?? Infinity, facts.workable[s]));
  const capacity = sum(caps);
  if (totalDemand <= capacity) return [];
  const shortfall = totalDemand - capacity;
  const k = problem.rules.max_consecutive_days;
  const perDay = new Set(facts.required.map(sum));
  const need = `All coverage needs ${totalDemand} shifts over ${count(days, 'day')}${perDay.size === 1 ? ` (${[...perDay][0]} a day)` : ''}`;
  const reasons: string[] = [];
  const actions: string[] = [];
  const maxSum = sum(staff.map((m) => Math.min(m.max_shifts ?? days, days)));
  if (maxSum < totalDemand) {
    reasons.push(`their max shifts add up to ${maxSum}`);
    actions.push('raise max shifts');
  }
  const availableSum = sum(staff.map((_, s) => facts.availableCount(s)));
  if (availableSum < totalDemand) {
    reasons.push(`their available days add up to ${availableSum}`);
    actions.push('free some unavailable days');
  }
  if (k !== undefined && staff.length * facts.fullWorkable < totalDemand) {
    reasons.push(`with at most ${k} days in a row a doctor works at most ${facts.fullWorkable} of ${days} days (${days} − floor(${days} / ${k + 1})): ${staff.length} × ${facts.fullWorkable} = ${staff.length * facts.fullWorkable}`);
    actions.push(`allow more than ${k} days in a row`);
  }
  if (reasons.length === 0) {
    const limits = ['max shifts', 'unavailable days', ...(k === undefined ? [] : [`at most ${k} days in a row`])];
    reasons.push(`${joinAnd(limits)} together leave room for ${capacity}`);
    actions.push('raise max shifts', 'free some unavailable days', ...(k === undefined ? [] : [`allow more than ${k} days in a row`]));
  }
  const perNew = facts.fullWorkable;
  actions.push(`add ${some(Math.ceil(shortfall / Math.max(1, perNew)), 'doctor')}`, 'lower coverage');
  return [{ shortfall, text: `${need}; ${count(staff.length, 'doctor')} can work at most ${capacity}: ${reasons.join('; ')} — ${joinOr(actions)}.` }];
}

/** Per day: the headcount needed (one shift a day each) vs the staff available that day. */
function dayShortfalls(facts: Facts): Finding[] {
  const groups = new Map<string, { days: number[]; need: number; available: number; away: Set<number> }>();
  for (let day = 1; day <= facts.days; day++) {
    const need = sum(facts.required[day - 1]);
    const available = facts.availableOn(day);
    if (need <= available.length) continue;
    const key = `${need}/${available.length}`;
    const group = groups.get(key) ?? { days: [], need, available: available.length, away: new Set<number>() };
    group.days.push(day);
    facts.staff.forEach((_, s) => {
      if (!facts.available[s][day - 1]) group.away.add(s);
    });
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => {
    const split = facts.shifts
      .map((shift, t) => `${shift.code} ${facts.required[g.days[0] - 1][t]}`)
      .filter((_, t) => facts.required[g.days[0] - 1][t] > 0);
    const away = [...g.away].slice(0, 3).map((s) => doctorLabel(facts.staff[s]));
    const awayText = away.length === 0 ? '' : ` (unavailable: ${away.join(', ')}${g.away.size > 3 ? ` and ${g.away.size - 3} more` : ''})`;
    const each = g.days.length > 1 ? ' each' : '';
    return {
      shortfall: (g.need - g.available) * g.days.length,
      text:
        `${capitalize(dayList(g.days))} ${g.days.length > 1 ? 'need' : 'needs'} ${count(g.need, 'doctor')}${each} (${split.join(', ')}), one shift a day each, but only ${g.available} ${g.available === 1 ? 'is' : 'are'} available${awayText}` +
        ` — free some of those unavailable days, add ${some(g.need - g.available, 'doctor')}, or lower coverage on ${g.days.length > 1 ? 'those days' : 'that day'}.`,
    };
  });
}

/** Per day and skilled shift type: the headcount needed vs the staff with the skill available that day. */
function skillShortfalls(facts: Facts): Finding[] {
  const findings: Finding[] = [];
  facts.shifts.forEach((shift, t) => {
    if (shift.skill === undefined) return;
    const groups = new Map<string, { days: number[]; need: number; available: number }>();
    for (let day = 1; day <= facts.days; day++) {
      const need = facts.required[day - 1][t];
      const available = facts.availableOn(day).filter((s) => hasSkillFor(facts.staff[s], shift)).length;
      if (need <= available) continue;
      const key = `${need}/${available}`;
      const group = groups.get(key) ?? { days: [], need, available };
      group.days.push(day);
      groups.set(key, group);
    }
    for (const g of groups.values()) {
      findings.push({
        shortfall: (g.need - g.available) * g.days.length,
        text:
          `Shift ${shiftLabel(shift)} needs ${count(g.need, 'doctor')} with the skill '${shift.skill}' on ${dayList(g.days)}, but only ${g.available} with it ${g.available === 1 ? 'is' : 'are'} available` +
          ` — give the skill to more doctors, add ${some(g.need - g.available, 'doctor')} with it, or lower ${units(shift).coverage}.`,
      });
    }
  });
  return findings;
}

/**
 * Rest rules between consecutive days: whoever works shift t on one day cannot work the shifts
 * the rules forbid after it on the next (a day shift after a night; less than the minimum rest),
 * so t's headcount on day d − 1 plus theirs on day d must be distinct people available then.
 */
function successionShortfalls(facts: Facts): Finding[] {
  const { rules } = facts.problem;
  const findings: Finding[] = [];
  facts.shifts.forEach((first, t) => {
    const forbidden = facts.shifts.flatMap((next, u) => {
      const why: string[] = [];
      if (rules.no_day_after_night && first.night && !next.night) why.push('night');
      const rest = 24 + next.start_hour - (first.start_hour + first.hours);
      if (rules.min_rest_hours > 0 && rest < rules.min_rest_hours) why.push('rest');
      return why.length > 0 ? [{ u, next, why, rest }] : [];
    });
    if (forbidden.length === 0) return;
    const groups = new Map<string, { days: number[]; need: number; available: number; before: number; after: number }>();
    for (let day = 2; day <= facts.days; day++) {
      const before = facts.required[day - 2][t];
      const after = sum(forbidden.map((f) => facts.required[day - 1][f.u]));
      if (before === 0 || after === 0) continue;
      const need = before + after;
      const available = facts.staff.filter((_, s) => facts.available[s][day - 2] || facts.available[s][day - 1]).length;
      if (need <= available) continue;
      const key = `${before}/${after}/${available}`;
      const group = groups.get(key) ?? { days: [], need, available, before, after };
      group.days.push(day);
      groups.set(key, group);
    }
    const reasons: string[] = [];
    if (forbidden.some((f) => f.why.includes('night'))) reasons.push('no day shift may follow a night shift');
    for (const f of forbidden.filter((f) => f.why.includes('rest'))) {
      reasons.push(`${first.code} then ${f.next.code} leaves ${hoursText(f.rest)} hours' rest, at least ${hoursText(rules.min_rest_hours)} required`);
    }
    const nextCodes = joinAnd(forbidden.map((f) => f.next.code));
    const relax = [
      ...(forbidden.some((f) => f.why.includes('night')) ? ['allow a day shift after a night'] : []),
      ...(forbidden.some((f) => f.why.includes('rest')) ? ['lower the minimum rest'] : []),
    ];
    for (const g of groups.values()) {
      findings.push({
        shortfall: (g.need - g.available) * g.days.length,
        text:
          `${capitalize(joinAnd(reasons))}: the ${count(g.before, 'doctor')} on shift ${shiftLabel(first)} one day cannot take the ${g.after} ${nextCodes} shift${g.after === 1 ? '' : 's'} of the next, ` +
          `so ${g.need} doctors are needed on ${dayList(g.days)}, but only ${g.available} are available — ${joinOr([...relax, `add ${some(g.need - g.available, 'doctor')}`, 'lower coverage'])}.`,
      });
    }
  });
  return findings;
}

/** Minimum shifts: their sum vs the shifts there are to give out, and each person's vs what they can work. */
function minimumShiftShortfalls(facts: Facts): Finding[] {
  const { staff, totalDemand } = facts;
  const findings: Finding[] = [];
  const minima = staff.map((m) => m.min_shifts ?? 0);
  const minSum = sum(minima);
  if (minSum > totalDemand) {
    findings.push({
      shortfall: minSum - totalDemand,
      text:
        `The doctors' minimum shifts add up to ${minSum}, but coverage has only ${totalDemand} shifts to give out (one doctor each)` +
        ` — lower the minimum shifts by ${minSum - totalDemand} in all, or raise coverage.`,
    });
  }
  // People who cannot reach their own minimum, grouped by (minimum, most they can work).
  const groups = new Map<string, { who: number[]; min: number; most: number }>();
  staff.forEach((m, s) => {
    const most = Math.min(m.max_shifts ?? Infinity, facts.workable[s]);
    if (minima[s] <= most) return;
    const key = `${minima[s]}/${most}`;
    const group = groups.get(key) ?? { who: [], min: minima[s], most };
    group.who.push(s);
    groups.set(key, group);
  });
  const k = facts.problem.rules.max_consecutive_days;
  for (const g of groups.values()) {
    const names = g.who.slice(0, 3).map((s) => doctorLabel(staff[s]));
    const more = g.who.length > 3 ? ` and ${g.who.length - 3} more` : '';
    const one = g.who.length === 1;
    const limits = [`${count(facts.availableCount(g.who[0]), 'available day')}`, ...(k === undefined ? [] : [`at most ${k} days in a row`])];
    findings.push({
      shortfall: (g.min - g.most) * g.who.length,
      text:
        `${names.join(', ')}${more} must work at least ${g.min} shifts${one ? '' : ' each'} but can work at most ${g.most} (${joinAnd(limits)})` +
        ` — lower ${one ? 'that minimum' : 'those minimums'}, free some unavailable days${k === undefined ? '' : ', or allow more days in a row'}.`,
    });
  }
  return findings;
}

/** Weekend fairness: the cap per person vs the weekend demand, with each person's available weekend days. */
function weekendShortfall(facts: Facts): Finding[] {
  const { problem, staff } = facts;
  if (!problem.rules.weekend_fairness) return [];
  const cap = weekendShiftCap(problem);
  if (cap === null || cap.demand === 0) return [];
  const weekend = weekendDays(problem);
  // Each person's weekend shifts without the cap: one a day on the weekend days they may work, within max shifts.
  const open = staff.map((m, s) => {
    const days = weekend.filter((d) => facts.available[s][d - 1] && facts.shifts.some((shift, t) => facts.required[d - 1][t] > 0 && hasSkillFor(m, shift))).length;
    return Math.min(days, m.max_shifts ?? Infinity);
  });
  const capacity = sum(open.map((n) => Math.min(cap.cap, n)));
  // Short even without the cap: the weekend days themselves are short (the per-day analysis says so), not fairness.
  if (capacity >= cap.demand || sum(open) < cap.demand) return [];
  return [
    {
      shortfall: cap.demand - capacity,
      text:
        `Weekend fairness lets each doctor work at most ${cap.cap} weekend shifts (ceil(${cap.demand} / ${cap.eligible}) + 1); with their unavailable weekend days and limits the ${count(cap.eligible, 'doctor')} can take only ${capacity} of the ${cap.demand} weekend shifts` +
        ` — turn weekend fairness off, free some weekend days, or add ${some(Math.ceil((cap.demand - capacity) / cap.cap), 'doctor')}.`,
    },
  ];
}

/** When no single bound falls short: the tightest requirements, and the rules to relax. */
function genericAction(facts: Facts): string {
  const { problem, staff } = facts;
  const { rules } = problem;
  const tight: Tightness[] = [];
  facts.shifts.forEach((shift, t) => {
    const demandDays: number[] = [];
    for (let d = 1; d <= facts.days; d++) if (facts.required[d - 1][t] > 0) demandDays.push(d);
    const demand = sum(demandDays.map((d) => facts.required[d - 1][t]));
    if (demand === 0) return;
    const capacity = sum(staff.flatMap((m, s) => (hasSkillFor(m, shift) ? [personShiftCap(facts, s, shift, demandDays).cap] : [])));
    if (capacity > 0 && Number.isFinite(capacity)) tight.push({ ratio: demand / capacity, text: `${units(shift).coverage} (${demand} of the ${capacity} ${units(shift).demand} the staff can work)` });
  });
  const capacity = sum(staff.map((m, s) => Math.min(m.max_shifts ?? Infinity, facts.workable[s])));
  if (facts.totalDemand > 0 && capacity > 0) tight.push({ ratio: facts.totalDemand / capacity, text: `all coverage (${facts.totalDemand} of the ${capacity} shifts the staff can work)` });
  let busiest = { ratio: 0, day: 0, need: 0, available: 0 };
  for (let day = 1; day <= facts.days; day++) {
    const need = sum(facts.required[day - 1]);
    const available = facts.availableOn(day).length;
    if (available > 0 && need / available > busiest.ratio) busiest = { ratio: need / available, day, need, available };
  }
  if (busiest.day > 0) tight.push({ ratio: busiest.ratio, text: `day ${busiest.day} (${busiest.need} of ${count(busiest.available, 'available doctor')})` });
  const minSum = sum(staff.map((m) => m.min_shifts ?? 0));
  if (minSum > 0 && facts.totalDemand > 0) tight.push({ ratio: minSum / facts.totalDemand, text: `minimum shifts (${minSum} of the ${facts.totalDemand} shifts there are)` });
  const tightest = tight.sort((a, b) => b.ratio - a.ratio).slice(0, 3).map((t) => t.text);

  const active: string[] = [];
  const relax: string[] = [];
  if (rules.max_consecutive_days !== undefined) {
    active.push(`at most ${rules.max_consecutive_days} days in a row`);
    relax.push('allow more days in a row');
  }
  if (rules.no_day_after_night && facts.shifts.some((s) => s.night) && facts.shifts.some((s) => !s.night)) {
    active.push('no day shift after a night shift');
    relax.push('allow a day shift after a night');
  }
  if (rules.min_rest_hours > 0) {
    active.push(`at least ${hoursText(rules.min_rest_hours)} hours' rest`);
    relax.push('lower the minimum rest');
  }
  if (rules.weekend_fairness) {
    active.push('weekend fairness');
    relax.push('turn weekend fairness off');
  }
  if (minSum > 0) relax.push('lower minimum shifts');
  if (staff.some((m) => m.max_shifts !== undefined) || facts.shifts.some((s) => s.max_per_staff !== undefined)) relax.push('raise maximum shifts');
  const parts = [...tightest, ...active];
  const named = parts.length > 0 ? ` The tightest: ${joinAnd(parts)}.` : '';
  return `No single requirement falls short on its own, but together they leave no schedule.${named} Try to ${joinOr([...relax.slice(0, 3), 'add a doctor', 'lower coverage'])}.`;
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
