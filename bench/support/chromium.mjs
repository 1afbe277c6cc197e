// Debian's Chromium through the e2e package's Playwright, as the benches drive it (headless, no
// background traffic that would add to a figure).
import { createRequire } from 'node:module';
import { fromRoot } from '../../scripts/lib/paths.mjs';

const { chromium } = createRequire(fromRoot('e2e', 'package.json'))('@playwright/test');

export function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The page's JS heap in use, in bytes (Performance.enable sent on `cdp` first), or null when Chromium does not say. */
export async function jsHeapUsed(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null;
}

/** Starts recording, in the page, the longest gap between two frames (the page frozen that long). */
export const startFrameGaps = (page) =>
  page.evaluate(() => {
    const gaps = (window.__benchGaps = { max: 0, on: true });
    let last = performance.now();
    const frame = (now) => {
      gaps.max = Math.max(gaps.max, now - last);
      last = now;
      if (gaps.on) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });

/** Stops the recording startFrameGaps began; resolves with the longest gap in ms. */
export const stopFrameGaps = (page) =>
  page.evaluate(() => {
    window.__benchGaps.on = false;
    return window.__benchGaps.max;
  });
