// What one cell edit costs the page's main thread on the main screen with its remotes shown (the
// navigator, the Workspace, the chat panel): a user types a value into a cell and presses Enter, ten
// times down a column of a 2,000 × 10 sheet (loaded whole). Printed: the main thread's CPU per edit
// (a Chromium CPU profile over the edits, idle left out), by script (a chunk's file name says whose
// code it is: the shell's, a remote's, React's, Chakra's); React commits per edit and fibers rendered
// per edit (a DevTools-style hook installed before React loads counts them: every remote mounted in
// the shell's tree renders into the same roots, so a new ShellContext shows as fibers re-rendered in
// every remote); the edit → its value shown in the grid. COMMITS=1 prints the first commits' detail:
// the components where rendering started (with the hooks whose state changed), the fibers rendered
// per part of the screen (data-testid), the components rendered most. The load average goes with
// every figure.
// Usage: node bench/edit-cost.mjs [port offset, default 950] (BENCH_PORT_BASE: consecutive ports from
// it instead; EDITS: edits per run, 10). Starts the built product (`npm start`'s processes) with a
// fresh data folder and stops it afterwards. PROFILE=<file.cpuprofile> keeps the profile.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { productApi } from './support/product-api.mjs';
import { startProductStack } from './support/product-stack.mjs';
import { launchChromium } from './support/chromium.mjs';
import { benchPorts } from './support/bench-ports.mjs';
import { signInPage } from './support/sign-in-page.mjs';
import { summarizeCpuProfile } from './support/cpu-profile.mjs';

const ports = benchPorts(Number(process.argv[2] ?? 950));
const EDITS = Number(process.env.EDITS ?? 10);
const ROWS = 2_000;
const COLS = 10;
/** The quiet time after each edit: the work an edit leaves for later (the ack, re-renders) counts. */
const SETTLE_MS = 700;
const base = `http://localhost:${ports.shell}`;
const user = { username: 'bench-edit-cost', password: 'bench edit cost password' };
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const api = productApi(base);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Installed before the page's scripts: React looks for this hook when it loads and tells it of every
 * commit (as it tells React DevTools, production builds too). A fiber counts as rendered in a commit
 * when its props or state are new (as React DevTools tells it).
 */
function countReactCommits() {
  const counts = (window.__react = { commits: 0, fibers: 0, log: [] });
  // As React DevTools tells a rendered fiber: new props or state than its other copy; a subtree that
  // bailed out whole keeps the same child fibers as its other copy and is not walked.
  const rendered = (fiber) => {
    let n = 0;
    const names = {};
    const tops = [];
    const nameOf = (t) => (typeof t === 'function' ? t.displayName || t.name : t && typeof t === 'object' ? t.displayName || t.render?.displayName || t.render?.name || t.type?.displayName || t.type?.name : t);
    // Each entry: a fiber, whether its parent rendered, the nearest named ancestors (where it sits).
    const stack = [[fiber, false, '', '']];
    const areas = {};
    while (stack.length) {
      const [f, parentRendered, path, area0] = stack.pop();
      const old = f.alternate;
      const name = nameOf(f.type);
      const tid = typeof f.type === 'string' ? f.memoizedProps?.['data-testid'] : null;
      const area = tid && area0.split('>').length < 4 ? `${area0}>${tid}` : area0;
      const here = typeof name === 'string' && typeof f.type !== 'string' ? `${path.split('>').slice(-3).join('>')}>${name}` : path;
      // A steadyShell memo whose shown values are the same bailed out: what renders under it did so on its own.
      const bailed = old && f.memoizedProps?.shown && old.memoizedProps?.shown && f.memoizedProps.shown.every((x, i) => Object.is(x, old.memoizedProps.shown[i]));
      const did = !bailed && (!old || f.memoizedProps !== old.memoizedProps || f.memoizedState !== old.memoizedState);
      if (did) {
        n++;
        areas[area] = (areas[area] ?? 0) + 1;
        if (name && typeof f.type !== 'string') names[name] = (names[name] ?? 0) + 1;
        if (!parentRendered && tops.length < 12) {
          // Which hooks changed (their index in the component), when the state did.
          const hooks = [];
          if (old && f.memoizedState !== old.memoizedState && f.memoizedState && typeof f.memoizedState === 'object' && 'next' in f.memoizedState) {
            for (let h = f.memoizedState, o = old.memoizedState, i = 0; h && i < 80; h = h.next, o = o?.next, i++) if (h.memoizedState !== o?.memoizedState) hooks.push(i);
          }
          tops.push(`${here}${hooks.length ? ` hooks ${hooks.join(',')}` : ''}`);
        }
      }
      if (f.sibling) stack.push([f.sibling, parentRendered, path, area0]);
      if (f.child && !(old && old.child === f.child)) stack.push([f.child, did, here, area]);
    }
    counts.log.push({ n, tops, areas: Object.entries(areas).sort((a, b) => b[1] - a[1]).slice(0, 14), names: Object.entries(names).sort((a, b) => b[1] - a[1]).slice(0, 10) });
    return n;
  };
  let renderers = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => ++renderers,
    onCommitFiberRoot: (_id, root) => {
      counts.commits++;
      counts.fibers += rendered(root.current.child ?? root.current);
    },
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    checkDCE: () => {},
  };
}

const stack = await startProductStack(ports, 'tessera-bench-edit-cost-');
let browser;
try {
  browser = await launchChromium();
  await api('/auth/signup', { method: 'POST', body: user });
  const { access_token: token } = await api('/auth/login', { method: 'POST', body: user });
  const headers = Array.from({ length: COLS }, (_, c) => `c${c}`);
  const data = Array.from({ length: ROWS }, (_, r) => Array.from({ length: COLS }, (_, c) => (c === 0 ? `r${r}` : String(r * COLS + c))));
  const sheet = await api('/sheets', { method: 'POST', token, body: { name: 'edit cost', headers, data } });

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(countReactCommits);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message.slice(0, 200)));
  await signInPage(page, base, user);
  await page.getByTestId('chat-panel-area').waitFor({ timeout: 60_000 });
  await page.getByTestId(`sheet-${sheet.id}`).getByRole('button').first().click();
  const rows = page.locator('[data-testid="sheet-grid"] .ht_master .htCore tbody tr');
  await rows.nth(0).locator('td', { hasText: /^r0$/ }).waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1_500);
  // The column edited: B, from row 1 down; the cell is selected once, then Enter moves down.
  await rows.nth(0).locator('td').nth(1).click();
  await page.waitForTimeout(SETTLE_MS);

  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const before = await page.evaluate(() => ({ ...window.__react, log: [...window.__react.log] }));
  const edits = [];
  for (let i = 0; i < EDITS; i++) {
    const value = `edit ${i} ${Date.now() % 100000}`;
    await page.evaluate(([row, text]) => {
      const e = (window.__edit = { enter: null, shown: null });
      const onKey = (ev) => {
        if (ev.key !== 'Enter') return;
        e.enter = performance.now();
        document.removeEventListener('keydown', onKey, { capture: true });
      };
      document.addEventListener('keydown', onKey, { capture: true });
      const poll = () => {
        const now = performance.now();
        const td = document.querySelectorAll('[data-testid="sheet-grid"] .ht_master .htCore tbody tr')[row]?.querySelectorAll('td')[1];
        if (e.enter !== null && td?.textContent === text) {
          e.shown = now;
          return;
        }
        requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
    }, [i, value]);
    await page.keyboard.type(value);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__edit.shown !== null, null, { timeout: 30_000, polling: 20 });
    edits.push(await page.evaluate(() => window.__edit));
    await page.waitForTimeout(SETTLE_MS);
  }
  const after = await page.evaluate(() => ({ ...window.__react }));
  if (process.env.COMMITS) for (const c of after.log.slice(before.log.length, before.log.length + 8)) console.log(c.n, JSON.stringify(c.tops), JSON.stringify(c.areas), JSON.stringify(c.names));
  const { profile } = await cdp.send('Profiler.stop');
  if (process.env.PROFILE) writeFileSync(process.env.PROFILE, JSON.stringify(profile));

  // Saved: the server holds every edit.
  const stored = await api(`/sheets/${sheet.id}/rows?start=0&count=${EDITS}`, { token });
  const lost = edits.filter((_, i) => !String(stored.data[i]?.[1] ?? '').startsWith(`edit ${i} `)).length;

  const summary = summarizeCpuProfile(profile, 12);
  const sampled = Number(/sampled (\d+) ms, of which idle (\d+) ms/.exec(summary)?.[1] ?? 0);
  const idle = Number(/of which idle (\d+) ms/.exec(summary)?.[1] ?? 0);
  console.log(summary);
  console.log(`\n${EDITS} edits of a ${ROWS.toLocaleString('en')} × ${COLS} sheet on the main screen (navigator, Workspace, chat panel), load ${load()}:`);
  console.log(`  main-thread CPU per edit: ${((sampled - idle) / EDITS).toFixed(1)} ms (profile, idle left out; includes the typing's own key handling)`);
  console.log(`  React commits per edit: ${((after.commits - before.commits) / EDITS).toFixed(1)}; fibers rendered per edit: ${Math.round((after.fibers - before.fibers) / EDITS)}`);
  console.log(`  Enter → value shown: median ${median(edits.map((e) => e.shown - e.enter)).toFixed(1)} ms`);
  console.log(`  edits stored by the server: ${EDITS - lost} of ${EDITS}; page errors: ${errors.length ? errors.join(' | ') : 'none'}`);
  await context.close();
} finally {
  await browser?.close().catch(() => {});
  await stack.stop();
}
