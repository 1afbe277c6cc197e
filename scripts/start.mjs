// `npm start`: bootstrap, then the whole product on the embedded database.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from './bootstrap.mjs';
import { repoRoot } from './lib/paths.mjs';
import { DEFAULT_PORTS, startStack } from './lib/stack.mjs';
import { supervise } from './lib/supervisor.mjs';

const began = Date.now();
const dataDir = path.resolve(repoRoot, process.env.DATA_DIR ?? 'data');

await bootstrap().catch((e) => {
  console.error(e.message);
  process.exit(1);
});

mkdirSync(dataDir, { recursive: true });
const logDir = path.join(dataDir, 'logs');
let stack;
try {
  // The shell server writes a default remotes.json on first start.
  stack = await startStack({ dataDir, logDir });
} catch (e) {
  console.error(e.message);
  process.exit(1);
}

console.log(`\nTessera is running at http://localhost:${DEFAULT_PORTS.shell}  (ready in ${((Date.now() - began) / 1000).toFixed(1)} s)`);
console.log(`Logs: ${logDir}/*.log — press Ctrl+C to stop.\n`);

// A process that exits is started again (scripts/lib/supervisor.mjs), so one crash does
// not take the product down until someone notices.
const supervised = stack.processes.map((p) => supervise(p, p.spec, { logDir }));

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping Tessera ...');
  await Promise.all(supervised.map((p) => p.stop()));
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
