// Starts a throwaway Redis from Debian's package for tests and benchmarks (FACTS.md recipe):
// no persistence, loopback only, daemonized with a pid file, stopped by that pid.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const SERVER = '/usr/bin/redis-server';
const CLI = '/usr/bin/redis-cli';

export function redisAvailable() {
  return existsSync(SERVER) && existsSync(CLI);
}

function ping(port) {
  const r = spawnSync(CLI, ['-h', '127.0.0.1', '-p', String(port), 'ping'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === 'PONG';
}

/**
 * Starts redis-server on 127.0.0.1:`port` with its pid file and log in `dir`.
 * Returns its URL and a stop function (kills that pid only).
 */
export function startRedis({ dir, port }) {
  if (!redisAvailable()) throw new Error('Redis is not installed: apt-get install -y redis-server');
  // Something already answers there (another suite's Redis): never share it.
  if (ping(port)) throw new Error(`port ${port} is taken by another Redis`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'redis.pid');
  const r = spawnSync(
    SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'yes', '--pidfile', pidFile, '--logfile', path.join(dir, 'redis.log'), '--dir', dir],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`redis-server failed: ${r.stderr || r.stdout}`);
  // Up in a few ms; the bound is a hang guard.
  const until = Date.now() + 10_000;
  while (!ping(port) || !existsSync(pidFile)) {
    if (Date.now() > until) throw new Error(`redis-server did not answer on port ${port}: ${readLog(dir)}`);
    spawnSync('sleep', ['0.05']);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop() {
      let pid = 0;
      try {
        pid = Number(readFileSync(pidFile, 'utf8').trim());
        if (pid > 0) process.kill(pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      // Wait for it to exit (it writes its log on the way out), so that the folder can go.
      const until = Date.now() + 5_000;
      while (pid > 0 && alive(pid) && Date.now() < until) spawnSync('sleep', ['0.05']);
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readLog(dir) {
  try {
    return readFileSync(path.join(dir, 'redis.log'), 'utf8').slice(-2000);
  } catch {
    return '';
  }
}
