// `npm start` keeps the product up: a process that exits is started again after a
// backoff (1 s, doubling to 30 s; back to 1 s once it stayed up a minute), with a log
// line naming its exit code. Meanwhile the shell's About view shows the service down.
import path from 'node:path';
import { startProcess } from './stack.mjs';

export const RESTART_FIRST_MS = 1000;
export const RESTART_MAX_MS = 30_000;
/** A process that stayed up this long is healthy again: its next restart waits 1 s. */
export const STABLE_MS = 60_000;

/** The wait before restart number `failures` + 1 in a row. */
export function restartDelay(failures) {
  return Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** failures);
}

const why = (code, signal) => (signal ? `was killed by ${signal}` : `exited with code ${code}`);

/**
 * Watches `first` (a started process of `spec`) and restarts it whenever it exits, until
 * stop(). `delay` and `log` are for tests.
 */
export function supervise(first, spec, { logDir, delay = restartDelay, stableMs = STABLE_MS, log = (line) => console.error(line) }) {
  const logFile = path.join(logDir, `${spec.name}.log`);
  let current = first;
  let startedAt = Date.now();
  let failures = 0;
  let restarts = 0;
  let stopped = false;
  let timer = null;
  let starting = null;

  const schedule = (reason) => {
    const wait = delay(failures++);
    log(`[tessera] ${spec.name} ${reason}; restarting in ${wait / 1000} s (log: ${logFile})`);
    timer = setTimeout(restart, wait);
  };
  const watch = (proc) =>
    proc.child.once('exit', (code, signal) => {
      if (stopped) return;
      if (Date.now() - startedAt >= stableMs) failures = 0;
      schedule(why(code, signal));
    });
  const restart = async () => {
    timer = null;
    starting = startProcess(spec, { logDir });
    try {
      const proc = await starting;
      starting = null;
      if (stopped) return void (await proc.stop());
      current = proc;
      startedAt = Date.now();
      restarts++;
      log(`[tessera] ${spec.name} is up again (pid ${proc.pid})`);
      watch(proc);
    } catch {
      starting = null;
      if (!stopped) schedule('did not become ready');
    }
  };

  watch(first);
  return {
    name: spec.name,
    get pid() {
      return current.pid;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const pending = starting;
      if (pending) await pending.then((p) => p.stop(), () => undefined);
      await current.stop();
    },
  };
}
