// What a bench reads of a process from Linux's /proc: CPU time, a status field (VmRSS, VmHWM) and
// the resident size of Chromium's renderer processes (a tab) among a process's descendants.
import { readFileSync, readdirSync } from 'node:fs';

/** utime + stime of a process, in ms (Linux /proc; clock ticks are 100 Hz there). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A size field of /proc/{pid}/status (VmRSS, VmHWM), in bytes. */
export function statusKb(pid, key) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${key}:`));
  return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
}

/** Resident size of Chromium's renderer processes (the tabs), found among the descendants of `rootPid`. */
export function rendererRss(rootPid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone */
    }
  }
  let total = 0;
  const todo = [rootPid];
  while (todo.length) {
    const pid = todo.pop();
    for (const child of children.get(pid) ?? []) {
      todo.push(child);
      try {
        if (readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('--type=renderer')) total += statusKb(child, 'VmRSS');
      } catch {
        /* gone */
      }
    }
  }
  return total;
}
