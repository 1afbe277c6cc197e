// A Chromium sampling heap profile (CDP HeapProfiler.stopSampling's `profile`) summed up as text:
// the bytes allocated (and, without the "collected" flags, still alive when it stopped) per script,
// per function (self: allocated in the function itself) and per function with what it called
// (total), so a bench can say which code holds a tab's memory without opening DevTools. The sizes
// are V8's estimates from samples (one every samplingInterval bytes on average); the JS heap only:
// what Blink, the network stack or a WebSocket's send buffer hold is not in it.

const fileOf = (url) => (url ? url.replace(/^.*\//, '') || url : '(native / no script)');
const nameOf = ({ functionName, url, lineNumber, columnNumber }) => `${functionName || '(anonymous)'} ${fileOf(url)}:${lineNumber + 1}:${columnNumber + 1}`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Text: the total, then per script (top `top`), per function self and per function total (a function counted once per path). */
export function summarizeHeapProfile(profile, top = 15) {
  const byScript = new Map();
  const self = new Map();
  const total = new Map();
  let all = 0;
  // Depth first; `onPath`: the functions above a node (a recursive one adds its subtree once).
  const walk = (node, onPath) => {
    const name = nameOf(node.callFrame);
    let sum = node.selfSize;
    all += node.selfSize;
    if (node.selfSize > 0) {
      self.set(name, (self.get(name) ?? 0) + node.selfSize);
      const script = fileOf(node.callFrame.url);
      byScript.set(script, (byScript.get(script) ?? 0) + node.selfSize);
    }
    const inner = new Set(onPath).add(name);
    for (const child of node.children ?? []) sum += walk(child, inner);
    if (!onPath.has(name)) total.set(name, (total.get(name) ?? 0) + sum);
    return sum;
  };
  walk(profile.head, new Set());
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = [`sampled ${mb(all)} in all; per script:`];
  for (const [name, bytes] of sorted(byScript)) lines.push(`  ${mb(bytes).padStart(9)}  ${name}`);
  lines.push('functions, self (allocated in the function itself):');
  for (const [name, bytes] of sorted(self)) lines.push(`  ${mb(bytes).padStart(9)}  ${name}`);
  lines.push('functions, total (with what they called):');
  for (const [name, bytes] of sorted(total).filter(([name]) => !name.startsWith('(root)'))) lines.push(`  ${mb(bytes).padStart(9)}  ${name}`);
  return lines.join('\n');
}
