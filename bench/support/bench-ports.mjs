// The ports a browser bench runs the product on: the default ports + `offset`, or, with
// BENCH_PORT_BASE set, consecutive ports from it (a machine that gives each run a narrow port range).
import { DEFAULT_PORTS } from '../../scripts/lib/stack.mjs';

export function benchPorts(offset) {
  const portBase = process.env.BENCH_PORT_BASE ? Number(process.env.BENCH_PORT_BASE) : null;
  return Object.fromEntries(Object.entries(DEFAULT_PORTS).map(([k, v], i) => [k, portBase === null ? v + offset : portBase + i]));
}
