import { ScheduleOptimizationSchema, type ScheduleOptimization, type ScheduleProblemInput } from '@tessera/contracts';

/** Problems the solver's tests solve (shared by its test files; the bench has its own larger ones). */

export function optimization(problem: ScheduleProblemInput, extra: Partial<Omit<ScheduleOptimization, 'problem' | 'kind'>> = {}): ScheduleOptimization {
  return ScheduleOptimizationSchema.parse({ kind: 'schedule', problem, ...extra });
}

const doctors = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `D${i + 1}`, name: `Doctor ${i + 1}` }));

/** 10 doctors × 14 days × D/N (12 h), 2 on days and 1 on nights, every rule on, a few days off and wishes. */
export function tenByFourteen(): ScheduleProblemInput {
  const staff = doctors(10).map((doctor, i) => ({
    ...doctor,
    unavailable_days: i % 3 === 0 ? [1 + i, 2 + i] : [],
    preferences: i % 2 === 0 ? [{ kind: 'avoid' as const, shift: 'N', weight: 2 }] : [{ kind: 'prefer' as const, day: 3, shift: 'D' }],
  }));
  return {
    staff,
    horizon: { days: 14, start_date: '2026-01-05' },
    shift_types: [
      { code: 'D', name: 'Day', start_hour: 7, hours: 12 },
      { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true, max_per_staff: 4 },
    ],
    coverage: { default: { D: 2, N: 1 }, by_weekday: { sun: { D: 1 } } },
    rules: { max_consecutive_days: 4, no_day_after_night: true, min_rest_hours: 11, weekend_fairness: true },
    objective: { preference_weight: 1, balance_weight: 1 },
  };
}

/** 'schedule 3 doctors over 28 days, 2 on night shift, at most 8 nights each' (phrase P2): 56 nights needed, 3 × 8 = 24 (30 after level 2). */
export function threeDoctorsTwoANight(): ScheduleProblemInput {
  return {
    staff: doctors(3),
    horizon: { days: 28 },
    shift_types: [{ code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true, max_per_staff: 8 }],
    coverage: { default: { N: 2 } },
  };
}

/** 3 doctors, 1 per night for 28 nights, at most 8 nights each: 28 > 24, but 3 × 10 = 30 once level 2 raises the cap. */
export function threeDoctorsOneANight(): ScheduleProblemInput {
  return { ...threeDoctorsTwoANight(), coverage: { default: { N: 1 } } };
}

/** A large roster (staff × days, D/E/N of 8 h) with every rule on: far more than one second of HiGHS. */
export function largeRoster(staffCount: number, days: number): ScheduleProblemInput {
  return {
    staff: doctors(staffCount).map((doctor, i) => ({
      ...doctor,
      unavailable_days: [1 + ((i * 7) % days), 1 + ((i * 13) % days)],
      preferences: i % 4 === 0 ? [{ kind: 'avoid' as const, shift: 'N', weight: 2 }] : i % 4 === 1 ? [{ kind: 'prefer' as const, shift: 'D' }] : [],
    })),
    horizon: { days, start_date: '2026-01-05' },
    shift_types: [
      { code: 'D', name: 'Day', start_hour: 7, hours: 8 },
      { code: 'E', name: 'Evening', start_hour: 15, hours: 8 },
      { code: 'N', name: 'Night', start_hour: 23, hours: 8, night: true, max_per_staff: Math.ceil(days / 4) },
    ],
    coverage: {
      default: { D: Math.round(staffCount * 0.22), E: Math.round(staffCount * 0.18), N: Math.round(staffCount * 0.15) },
      by_weekday: { sat: { D: Math.round(staffCount * 0.15) }, sun: { D: Math.round(staffCount * 0.15) } },
    },
    rules: { max_consecutive_days: 5, no_day_after_night: true, min_rest_hours: 11, weekend_fairness: true },
  };
}
