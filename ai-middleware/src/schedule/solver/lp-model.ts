import { requiredHeadcount, type ScheduleProblem } from '@tessera/contracts';
import { weekendDays, weekendShiftCap } from '../check/weekend-fairness.js';

/**
 * A schedule problem as a MILP in CPLEX LP text for HiGHS. The problem given is the one to
 * solve (already relaxed: relaxation.ts); `coverageSoft` is the last level, where coverage is
 * a target and each unfilled place costs more than anything else in the objective.
 *
 * x{s}_{d}_{t} is 1 when staff s (index) works shift type t (index) on day d (1-based); it
 * exists only where that is allowed (available, has the skill, the shift is needed that day),
 * so the hard rules that are about who may work what cost no rows at all. The names are
 * indices, never ids (ids may hold any text); `cells` maps each name back.
 */

export interface ScheduleModelCell {
  staff: number;
  day: number;
  shift: number;
}

export interface ScheduleModel {
  /** The model in CPLEX LP format. */
  text: string;
  /** Column name of an assignment variable → who works what when. */
  cells: Map<string, ScheduleModelCell>;
  /** Column name of an unfilled-places variable (only when coverage is soft, or nobody may work a needed shift) → day and shift index. */
  unfilled: Map<string, { day: number; shift: number }>;
  columns: number;
  rows: number;
}

export interface ScheduleModelOptions {
  coverageSoft: boolean;
}

const xName = (s: number, d: number, t: number) => `x${s}_${d}_${t}`;

export function buildScheduleModel(problem: ScheduleProblem, options: ScheduleModelOptions): ScheduleModel {
  const { staff, shift_types: shifts, rules, objective } = problem;
  const days = problem.horizon.days;
  const required = (d: number, t: number) => requiredHeadcount(problem, d, shifts[t].code);

  // Which cells exist: x[s][d][t] = name or undefined.
  const cells = new Map<string, ScheduleModelCell>();
  const x: (string | undefined)[][][] = staff.map((member, s) => {
    const unavailable = new Set(member.unavailable_days);
    const skills = new Set(member.skills);
    const perDay: (string | undefined)[][] = [[]];
    for (let d = 1; d <= days; d++) {
      perDay.push(
        shifts.map((shift, t) => {
          if (unavailable.has(d) || required(d, t) === 0) return undefined;
          if (shift.skill !== undefined && !skills.has(shift.skill)) return undefined;
          if (shift.max_per_staff === 0 || member.max_shifts === 0) return undefined;
          const name = xName(s, d, t);
          cells.set(name, { staff: s, day: d, shift: t });
          return name;
        }),
      );
    }
    return perDay;
  });
  const working = (s: number, d: number) => x[s][d].filter((name): name is string => name !== undefined);
  /** Every cell of a person. */
  const cellsOf = (s: number) => x[s].flatMap((perDay) => perDay.filter((name): name is string => name !== undefined));

  const cost = new Map<string, number>();
  const addCost = (name: string, value: number) => cost.set(name, (cost.get(name) ?? 0) + value);
  const rows: string[] = [];
  const row = (terms: string[], sense: '<=' | '>=' | '=', rhs: number) => {
    if (terms.length > 0) rows.push(`${linear(terms.map((name) => [1, name] as [number, string]))} ${sense} ${rhs}`);
  };
  const bounds: string[] = [];
  const generals: string[] = [];
  const unfilled = new Map<string, { day: number; shift: number }>();

  // Preferences: each matching cell is cheaper (prefer) or dearer (avoid) by weight × preference_weight.
  staff.forEach((member, s) => {
    for (const pref of member.preferences) {
      const sign = pref.kind === 'avoid' ? 1 : -1;
      for (let d = 1; d <= days; d++) {
        if (pref.day !== undefined && pref.day !== d) continue;
        shifts.forEach((shift, t) => {
          const name = x[s][d][t];
          if (name && (pref.shift === undefined || pref.shift === shift.code)) addCost(name, sign * pref.weight * objective.preference_weight);
        });
      }
    }
  });

  // Coverage: exactly the headcount; at the last level a target, an unfilled place costing more than any rearrangement could save.
  const unfilledCost = 100 * (1 + 2 * objective.balance_weight + Math.max(0, ...[...cost.values()].map(Math.abs)));
  let demand = 0;
  for (let d = 1; d <= days; d++) {
    shifts.forEach((_, t) => {
      const need = required(d, t);
      if (need === 0) return;
      demand += need;
      const terms = staff.map((_, s) => x[s][d][t]).filter((name): name is string => name !== undefined);
      if (options.coverageSoft || terms.length < need) {
        // A shift nobody may work gets its variable even at a hard level, fixed at 0, so HiGHS proves the infeasibility.
        const name = `u${d}_${t}`;
        unfilled.set(name, { day: d, shift: t });
        terms.push(name);
        bounds.push(`0 <= ${name} <= ${options.coverageSoft ? need : 0}`);
        generals.push(name);
        if (options.coverageSoft) addCost(name, unfilledCost);
      }
      row(terms, '=', need);
    });
  }

  // Two days in a row: the rest rules forbid pairs (a night then a day shift; too little rest between
  // one shift's end and the next day's start), and one shift a day forbids any two on one day. Written
  // as the maximal cliques of that conflict graph (shift types of day d and d + 1): one row per clique
  // is both fewer rows and a tighter relaxation than a row per pair.
  const crossCliques = dayPairCliques(problem);

  staff.forEach((member, s) => {
    // At most one shift a day.
    for (let d = 1; d <= days; d++) if (working(s, d).length > 1) row(working(s, d), '<=', 1);

    for (let d = 1; d < days; d++) {
      const seen = new Set<string>();
      for (const clique of crossCliques) {
        const today = clique.today.map((t) => x[s][d][t]).filter((name): name is string => name !== undefined);
        const tomorrow = clique.tomorrow.map((t) => x[s][d + 1][t]).filter((name): name is string => name !== undefined);
        // Without a cell on both days the clique is within one day: the day's own row has it.
        if (today.length === 0 || tomorrow.length === 0) continue;
        const key = [...today, ...tomorrow].join(' ');
        if (seen.has(key)) continue;
        seen.add(key);
        row([...today, ...tomorrow], '<=', 1);
      }
    }

    // Max consecutive working days: in any K+1 days in a row, at most K worked (windows with enough days off already are skipped).
    const k = rules.max_consecutive_days;
    if (k !== undefined) {
      for (let d = 1; d + k <= days; d++) {
        const terms: string[] = [];
        let workable = 0;
        for (let e = d; e <= d + k; e++) {
          if (working(s, e).length === 0) continue;
          workable++;
          // Cells, not a day variable per day: with one the LP relaxation took three times the iterations.
          terms.push(...working(s, e));
        }
        if (workable > k) row(terms, '<=', k);
      }
    }

    // Shifts per person, and per shift type.
    const all = cellsOf(s);
    if (member.min_shifts !== undefined && member.min_shifts > 0) {
      if (all.length < member.min_shifts) {
        // Not enough cells to reach the minimum: an impossible row, so HiGHS reports the infeasibility.
        rows.push(`0 x_none_${s} >= ${member.min_shifts}`);
        bounds.push(`x_none_${s} = 0`);
      } else row(all, '>=', member.min_shifts);
    }
    if (member.max_shifts !== undefined && all.length > member.max_shifts) row(all, '<=', member.max_shifts);
    shifts.forEach((shift, t) => {
      if (shift.max_per_staff === undefined) return;
      const ofType = x[s].map((perDay) => perDay[t]).filter((name): name is string => name !== undefined);
      if (ofType.length > shift.max_per_staff) row(ofType, '<=', shift.max_per_staff);
    });
  });

  // Weekend fairness: nobody works more than ceil(W / E) + 1 weekend shifts (the checker's definition: weekend-fairness.ts).
  if (rules.weekend_fairness) {
    const fairness = weekendShiftCap(problem);
    if (fairness && fairness.demand > 0) {
      const weekend = weekendDays(problem);
      staff.forEach((_, s) => {
        const names = weekend.flatMap((d) => working(s, d));
        if (names.length > fairness.cap) row(names, '<=', fairness.cap);
      });
    }
  }

  // Balance: each person's count of shifts within an even share, the share computed by water-filling
  // so that people who cannot reach it (limits, days off) take what they can and the rest share the remainder.
  if (objective.balance_weight > 0) {
    const counts = staff.map((_, s) => x[s].reduce((sum, perDay) => sum + (perDay.some(Boolean) ? 1 : 0), 0));
    const limits = staff.map((member, s) => {
      let cap = counts[s];
      if (member.max_shifts !== undefined) cap = Math.min(cap, member.max_shifts);
      const perType = shifts.reduce((sum, shift, t) => {
        const cellsOfType = x[s].filter((perDay) => perDay[t] !== undefined).length;
        return sum + Math.min(cellsOfType, shift.max_per_staff ?? cellsOfType);
      }, 0);
      cap = Math.min(cap, perType);
      return { low: Math.min(member.min_shifts ?? 0, cap), high: cap };
    });
    const share = evenShare(demand, limits);
    staff.forEach((_, s) => {
      const all = cellsOf(s);
      if (all.length === 0) return;
      const target = Math.min(Math.max(share, limits[s].low), limits[s].high);
      const over = `bp${s}`;
      const under = `bn${s}`;
      rows.push(`${linear([...all.map((name) => [1, name] as [number, string]), [-1, over]])} <= ${Math.ceil(target - 1e-9)}`);
      rows.push(`${linear([...all.map((name) => [1, name] as [number, string]), [1, under]])} >= ${Math.floor(target + 1e-9)}`);
      addCost(over, objective.balance_weight);
      addCost(under, objective.balance_weight);
    });
  }

  const objectiveTerms = [...cost.entries()].filter(([, value]) => value !== 0).map(([name, value]) => [value, name] as [number, string]);
  // An objective with no term still needs one column named (every cell appears in a coverage row anyway).
  if (objectiveTerms.length === 0) objectiveTerms.push([0, cells.keys().next().value ?? [...unfilled.keys()][0] ?? 'x_empty']);
  const binaries = [...cells.keys()];
  const text = [
    'Minimize',
    ` obj: ${linear(objectiveTerms)}`,
    'Subject To',
    ...rows.map((body, i) => ` r${i}: ${body}`),
    'Bounds',
    ...bounds.map((line) => ` ${line}`),
    'Binary',
    ...chunks(binaries, 20).map((names) => ` ${names.join(' ')}`),
    ...(generals.length > 0 ? ['General', ...chunks(generals, 20).map((names) => ` ${names.join(' ')}`)] : []),
    'End',
    '',
  ].join('\n');
  return { text, cells, unfilled, columns: cells.size + unfilled.size + (objective.balance_weight > 0 ? 2 * staff.length : 0), rows: rows.length };
}

/**
 * The maximal cliques, over the shift types of one day (today) and the next (tomorrow), of the
 * pairs that may not both be worked, that hold at least one pair across the two days. Two shifts
 * on one day always clash (one shift a day); a shift today clashes with one tomorrow when a
 * night shift would be followed by a day shift (rules.no_day_after_night) or the rest between
 * them is under rules.min_rest_hours.
 */
export function dayPairCliques(problem: Pick<ScheduleProblem, 'shift_types' | 'rules'>): { today: number[]; tomorrow: number[] }[] {
  const { shift_types: shifts, rules } = problem;
  const n = shifts.length;
  const crosses = (t: number, u: number) => {
    const first = shifts[t];
    const next = shifts[u];
    if (rules.no_day_after_night && first.night && !next.night) return true;
    return rules.min_rest_hours > 0 && 24 + next.start_hour - (first.start_hour + first.hours) < rules.min_rest_hours;
  };
  // Nodes 0..n-1 are today's types, n..2n-1 tomorrow's.
  const adjacent = (a: number, b: number) => {
    if (a === b) return false;
    if ((a < n) === (b < n)) return true;
    return a < n ? crosses(a, b - n) : crosses(b, a - n);
  };
  const cliques: number[][] = [];
  // Bron–Kerbosch: at most 12 nodes.
  const extend = (r: number[], p: number[], x: number[]) => {
    if (p.length === 0 && x.length === 0) {
      cliques.push(r);
      return;
    }
    for (const v of [...p]) {
      extend([...r, v], p.filter((w) => adjacent(v, w)), x.filter((w) => adjacent(v, w)));
      p = p.filter((w) => w !== v);
      x = [...x, v];
    }
  };
  extend([], Array.from({ length: 2 * n }, (_, i) => i), []);
  return cliques
    .map((clique) => ({ today: clique.filter((v) => v < n).sort((a, b) => a - b), tomorrow: clique.filter((v) => v >= n).map((v) => v - n).sort((a, b) => a - b) }))
    .filter((clique) => clique.today.length > 0 && clique.tomorrow.length > 0);
}

/**
 * The share s such that Σ clamp(s, low_i, high_i) = total: everyone as even as their limits allow.
 * Bisection is exact enough: the rows round it to whole shifts.
 */
export function evenShare(total: number, limits: { low: number; high: number }[]): number {
  const filled = (share: number) => limits.reduce((sum, { low, high }) => sum + Math.min(Math.max(share, low), high), 0);
  let lo = 0;
  let hi = Math.max(1, ...limits.map((limit) => limit.high));
  if (filled(hi) <= total) return hi;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (filled(mid) < total) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** A linear expression in LP syntax, wrapped so no line gets long. */
function linear(terms: [number, string][]): string {
  return terms
    .map(([coef, name], i) => {
      const sign = coef < 0 ? '-' : '+';
      const magnitude = Math.abs(coef);
      const term = `${magnitude === 1 ? '' : `${formatNumber(magnitude)} `}${name}`;
      const wrap = i > 0 && i % 12 === 0 ? '\n  ' : '';
      return i === 0 ? `${coef < 0 ? '- ' : ''}${term}` : `${wrap} ${sign} ${term}`;
    })
    .join('');
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toPrecision(12).replace(/\.?0+$/, '');
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
