// Starts a throwaway PostgreSQL from Debian's package for tests (FACTS.md recipe).
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

function pgBinDir() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : null;
}

export function postgresAvailable() {
  return pgBinDir() !== null;
}

/** Runs as the postgres user when we are root: initdb refuses root. */
function asPostgres(cmd, args) {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(file, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

/**
 * Starts a fresh cluster in `dir` on 127.0.0.1:`port` with user `app` and
 * trust auth. Returns the admin URL and a stop function.
 */
export function startPostgres({ dir, port }) {
  const bin = pgBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
  asPostgres(path.join(bin, 'initdb'), ['-D', dir, '-U', 'app', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  asPostgres(path.join(bin, 'pg_ctl'), ['-D', dir, '-o', `-h 127.0.0.1 -p ${port} -k /tmp -c fsync=off -c max_connections=300`, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  const url = `postgres://app@127.0.0.1:${port}/postgres`;
  return {
    url,
    stop() {
      try {
        asPostgres(path.join(bin, 'pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']);
      } catch (e) {
        console.error(String(e));
      }
    },
  };
}
