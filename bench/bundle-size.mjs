// Figures: JS transferred (gzip) for the sign-in screen and for the main screen
// with all remotes shown, broken down by chunk. Starts its own stack on
// ports +200 with a fresh data folder, drives Debian's Chromium.
import { gzipSync } from 'node:zlib';
import { DEFAULT_PORTS } from '../scripts/lib/stack.mjs';
import { startProductStack } from './support/product-stack.mjs';
import { launchChromium } from './support/chromium.mjs';

const ports = Object.fromEntries(Object.entries(DEFAULT_PORTS).map(([k, v]) => [k, v + 200]));
const stack = await startProductStack(ports, 'tessera-bundle-');

const browser = await launchChromium();
try {
  const page = await browser.newPage();
  let scripts = [];
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type !== 'script' && !res.url().endsWith('.js')) return;
    try {
      const body = await res.body();
      scripts.push({ url: res.url(), raw: body.length, gz: gzipSync(body, { level: 6 }).length, encoding: res.headers()['content-encoding'] ?? 'none' });
    } catch {
      /* redirects have no body */
    }
  });
  const report = (label) => {
    const total = scripts.reduce((sum, x) => sum + x.gz, 0);
    const encodings = [...new Set(scripts.map((x) => x.encoding))].join(', ');
    console.log(`bundle: ${label}: ${(total / 1024).toFixed(1)} KB gz of JS in ${scripts.length} files (served as: ${encodings})`);
    for (const s of [...scripts].sort((a, b) => b.gz - a.gz)) {
      const u = new URL(s.url);
      console.log(`  ${(s.gz / 1024).toFixed(1).padStart(7)} KB gz  ${(s.raw / 1024).toFixed(0).padStart(6)} KB raw  ${u.port}${u.pathname}`);
    }
    return total;
  };

  const base = `http://localhost:${ports.shell}`;
  // A fresh browser profile: nothing cached.
  await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  const signIn = report('sign-in screen, fresh load');

  scripts = [];
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByLabel(/^username/i).fill('bench-admin');
  await page.getByLabel(/^password/i).fill('bench-password-1');
  await page.getByRole('button', { name: /sign up/i }).click();
  await page.getByText('No Sheet Selected').waitFor();
  await page.getByRole('button', { name: /members/i }).click();
  await page.getByText('(You)').waitFor();
  await page.getByRole('tab', { name: /git/i }).click();
  await page.getByText('No commits yet').waitFor();
  await page.waitForLoadState('networkidle');
  const main = report('main screen with all four remotes shown (Navigator, Workspace, ChatPanel, MembersPanel, GitPanel), on top of the sign-in screen');
  console.log(`bundle: total JS for sign-in + main screen with every remote: ${((signIn + main) / 1024).toFixed(1)} KB gz`);
} finally {
  await browser.close();
  await stack.stop();
}
