// A Chromium CPU profile (CDP Profiler.stop's `profile`) summed up as text: the self time of each
// script (a chunk's file name says whose code it is) and the functions with the most self time,
// so a bench can say where a blocked main thread spent its time without opening DevTools.

/** Self time per node, in ms: the samples that landed on it × the time between them. */
function selfTimes(profile) {
  const self = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  for (let i = 0; i < samples.length; i++) {
    // A sample's delta is the time since the one before: it belongs to the sample before it.
    const dt = (timeDeltas[i + 1] ?? 0) / 1000;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
  }
  return self;
}

const fileOf = (url) => (url ? url.replace(/^.*\//, '') || url : '(native / no script)');

/** Text: total sampled time, self time per script (top `top`), then the `top` functions with the most self time. */
export function summarizeCpuProfile(profile, top = 15) {
  const self = selfTimes(profile);
  const byScript = new Map();
  const byFunction = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const t = self.get(node.id) ?? 0;
    if (t === 0) continue;
    total += t;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const script = fileOf(url);
    byScript.set(script, (byScript.get(script) ?? 0) + t);
    const fn = `${functionName || '(anonymous)'} ${script}:${lineNumber + 1}:${columnNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
  }
  const idle = [...profile.nodes].filter((n) => n.callFrame.functionName === '(idle)').reduce((a, n) => a + (self.get(n.id) ?? 0), 0);
  const lines = [`sampled ${Math.round(total)} ms, of which idle ${Math.round(idle)} ms; self time per script:`];
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [name, t] of sorted(byScript)) lines.push(`  ${String(Math.round(t)).padStart(6)} ms  ${name}`);
  lines.push('functions with the most self time:');
  for (const [name, t] of sorted(byFunction)) lines.push(`  ${String(Math.round(t)).padStart(6)} ms  ${name}`);
  return lines.join('\n');
}
