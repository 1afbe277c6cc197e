// `node scripts/postgres.mjs start [port] [dir]` / `stop [dir]`: a PostgreSQL for local test runs.
import { startPostgres } from './lib/postgres.mjs';
import { spawnSync } from 'node:child_process';

const [cmd, a, b] = process.argv.slice(2);
if (cmd === 'start') {
  const port = Number(a ?? 54329);
  const dir = b ?? `/tmp/tessera-pg-${port}`;
  const pg = startPostgres({ dir, port });
  console.log(pg.url);
} else if (cmd === 'stop') {
  const dir = a ?? '/tmp/tessera-pg-54329';
  spawnSync('runuser', ['-u', 'postgres', '--', '/usr/lib/postgresql/15/bin/pg_ctl', '-D', dir, '-m', 'fast', 'stop'], { stdio: 'inherit' });
} else {
  console.error('usage: node scripts/postgres.mjs start [port] [dir] | stop [dir]');
  process.exit(2);
}
