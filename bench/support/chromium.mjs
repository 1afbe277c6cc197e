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
