// Figures for issue 8 (the schedule solver): rostering instances of staff × days × shift
// types, solved through the built service (solveSchedule in ai-middleware/dist): time, status,
// objective and MIP gap of each. Targets: 20×28×3 optimal in ≤ 2 s; 100×56×3 feasible within
// the 30 s limit, with its gap. Needs ai-middleware built (`npm run build`).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { seededRandom } from './support/seeded-random.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { ScheduleOptimizationSchema } = await import(pathToFileURL(path.join(root, 'shared-contracts/dist/index.js')).href);

/**
 * A hospital-like roster: 12-hour D/N shifts (two types) or 8-hour D/E/N (three); about 55 %
 * of the staff on duty on a weekday and less at weekends; at most 5 days in a row, no day shift
 * after a night, 11 hours' rest, weekend fairness; a few days off each, nights capped per person,
 * some people asking for or avoiding shifts.
 */
export function rosterInstance(staffCount, days, typeCount, seed = staffCount * 1000 + days * 10 + typeCount) {
  const rand = seededRandom(seed);
  const shift_types =
    typeCount === 2
      ? [
          { code: 'D', name: 'Day', start_hour: 7, hours: 12, night: false },
          { code: 'N', name: 'Night', start_hour: 19, hours: 12, night: true, max_per_staff: Math.ceil(days * 0.3) },
        ]
      : [
          { code: 'D', name: 'Day', start_hour: 7, hours: 8, night: false },
          { code: 'E', name: 'Evening', start_hour: 15, hours: 8, night: false },
          { code: 'N', name: 'Night', start_hour: 23, hours: 8, night: true, max_per_staff: Math.ceil(days * 0.25) },
        ];
  const onDuty = staffCount * 0.55;
  const split = typeCount === 2 ? [0.6, 0.4] : [0.4, 0.33, 0.27];
  const headcount = (factor) => Object.fromEntries(shift_types.map((shift, t) => [shift.code, Math.max(1, Math.round(onDuty * split[t] * factor))]));
  const staff = Array.from({ length: staffCount }, (_, i) => {
    const unavailable = new Set();
    const off = Math.floor(rand() * 4);
    for (let k = 0; k < off; k++) unavailable.add(1 + Math.floor(rand() * days));
    const preferences = [];
    if (rand() < 0.3) preferences.push({ kind: 'avoid', shift: 'N', weight: 2 });
    if (rand() < 0.3) preferences.push({ kind: 'prefer', shift: 'D', weight: 1 });
    if (rand() < 0.2) preferences.push({ kind: 'avoid', day: 1 + Math.floor(rand() * days), weight: 3 });
    return {
      id: `S${i + 1}`,
      name: `Staff ${i + 1}`,
      unavailable_days: [...unavailable].sort((a, b) => a - b),
      preferences,
      ...(rand() < 0.15 ? { max_shifts: Math.floor(days * 0.5) } : {}),
    };
  });
  return ScheduleOptimizationSchema.parse({
    kind: 'schedule',
    problem: {
      staff,
      horizon: { days, start_date: '2026-01-05' },
      shift_types,
      coverage: { default: headcount(1), by_weekday: { sat: headcount(0.7), sun: headcount(0.7) } },
      rules: { max_consecutive_days: 5, no_day_after_night: true, min_rest_hours: 11, weekend_fairness: true },
      objective: { preference_weight: 1, balance_weight: 1 },
    },
  });
}

async function main() {
  const service = path.join(root, 'ai-middleware/dist/schedule/solver/schedule.service.js');
  if (!existsSync(service)) {
    console.error('schedule: build ai-middleware first (npm run build)');
    process.exit(1);
  }
  const { solveSchedule } = await import(pathToFileURL(service).href);
  const only = process.argv[2];
  const cpuSeconds = (since) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1e6;
  };

  // The first solve of a process also compiles HiGHS's WebAssembly (once; every later worker reuses it).
  const w0 = performance.now();
  const c0 = process.cpuUsage();
  await solveSchedule(rosterInstance(3, 3, 2), {});
  console.log(`first solve of the process (compiles HiGHS): ${((performance.now() - w0) / 1000).toFixed(2)} s, cpu ${cpuSeconds(c0).toFixed(2)} s\n`);

  const sizes = [
    [10, 14, 2],
    [20, 28, 3],
    [50, 28, 3],
    [100, 56, 3],
  ];
  // cpu: the whole process's, the solver's worker thread included (what the solve cost on a busy machine).
  console.log('instance     time      cpu       status    attempts  objective  gap      relaxed');
  for (const [s, d, t] of sizes) {
    const name = `${s}×${d}×${t}`;
    if (only && only !== name && only !== `${s}x${d}x${t}`) continue;
    const request = rosterInstance(s, d, t);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const reply = await solveSchedule(request, {});
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(cpu0);
    const result = reply.backend_solver?.result;
    const gap = result?.gap === null || result?.gap === undefined ? '–' : `${(result.gap * 100).toFixed(2)} %`;
    const objective = result?.objective === null || result?.objective === undefined ? '–' : String(Math.round(result.objective * 100) / 100);
    console.log(
      [
        name.padEnd(12),
        `${seconds.toFixed(2)} s`.padEnd(9),
        `${cpu.toFixed(2)} s`.padEnd(9),
        (result?.status ?? reply.status).padEnd(9),
        String(reply.schedule?.attempts.length ?? 0).padEnd(9),
        objective.padEnd(10),
        gap.padEnd(8),
        reply.schedule?.relaxation_level ? `level ${reply.schedule.relaxation_level}` : 'nothing',
      ].join(' '),
    );
    if (!reply.success) console.log(`  ${reply.message}`);
  }
}

// Run when called (npm run bench, node bench/schedule.mjs [20x28x3]); importing it only gives the generator.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
