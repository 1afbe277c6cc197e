// `npm run bench`: runs every benchmark under bench/ (or those named) and prints their figures.
import { readdirSync } from 'node:fs';
import { bootstrap } from './bootstrap.mjs';
import { fromRoot } from './lib/paths.mjs';
import { run } from './lib/run.mjs';

const only = process.argv.slice(2);
await bootstrap();
let failed = 0;
for (const file of readdirSync(fromRoot('bench')).filter((f) => f.endsWith('.mjs')).sort()) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  console.log(`\n== bench/${file}`);
  const r = await run(process.execPath, [fromRoot('bench', file)]);
  if (r.code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
