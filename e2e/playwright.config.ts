import { defineConfig } from '@playwright/test';

/**
 * One product stack for the whole run (global setup), driven by Debian's Chromium, in two workers.
 * The specs share the stack's database, code repository and online list, so which of them may run
 * side by side is decided here, in phases (a project starts once the projects it depends on are
 * done). What one spec changes that another sees:
 * - foundation.spec.ts signs up the first admin (every other spec signs in as that admin) and
 *   stops a remote of the stack for a while: it runs first, alone.
 * - sheets.spec.ts reads the whole tree, Recent (every visible sheet, the latest updated first)
 *   and drags rows in the tree: nothing may create or change a sheet while it runs.
 * - git.spec.ts wants the code repository empty; versions.spec.ts commits to it.
 * - live.spec.ts counts the users online in the workspace ('2 online'): no other member may be
 *   signed in meanwhile (the admin is one of the two), as in members, oidc, revocation, sharing
 *   and charts.
 * - chat, python and schedule use the admin's chat sessions (the most recently active one opens)
 *   and name their result sheets by the second ('AI Generated Sheet 07-02-13'): one at a time.
 * - deploys.spec.ts runs a stack of its own and shares nothing.
 * Tests inside a file run in order (fullyParallel: false). A new spec file runs in the last
 * project, alone, until it is given a place above.
 */
const files = {
  quiet: ['sheets', 'git', 'layout', 'members', 'oidc'],
  ai: ['chat', 'python', 'schedule'],
  adminOnly: ['live', 'versions', 'deploys'],
  withMembers: ['charts', 'revocation', 'sharing'],
};
const specFiles = (names: string[]) => new RegExp(`/(${names.join('|')})\\.spec\\.ts$`);
const placed = ['foundation', ...Object.values(files).flat()];

/**
 * TESSERA_E2E_SERIAL=1: one worker, foundation.spec.ts then every other spec, as before the phases.
 * For one spec file: without it, a file also runs the projects its own depends on, in full.
 */
const serial = process.env.TESSERA_E2E_SERIAL === '1';
const firstRun = { name: 'first-run', testMatch: /\/foundation\.spec\.ts$/ };
const phased = [
  firstRun,
  // Nothing here writes a sheet, so sheets.spec.ts sees only its own changes; git.spec.ts finds
  // the repository empty.
  { name: 'quiet', testMatch: specFiles(files.quiet), dependencies: ['first-run'] },
  // Only the admin is signed in (and live.spec.ts's second user); the AI specs one after another.
  { name: 'ai', testMatch: specFiles(files.ai), workers: 1, dependencies: ['quiet'] },
  { name: 'admin-only', testMatch: specFiles(files.adminOnly), dependencies: ['quiet'] },
  // Specs that sign in members of their own.
  { name: 'with-members', testMatch: specFiles(files.withMembers), dependencies: ['ai', 'admin-only'] },
  { name: 'unplaced', testIgnore: specFiles(placed), workers: 1, dependencies: ['with-members'] },
];

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  globalTeardown: './support/global-teardown.ts',
  fullyParallel: false,
  workers: serial ? 1 : 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // npm test reads the JSON report (PLAYWRIGHT_JSON_OUTPUT_NAME) for its summary line.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  projects: serial ? [firstRun, { name: 'product', testIgnore: /\/foundation\.spec\.ts$/, dependencies: ['first-run'] }] : phased,
  use: {
    baseURL: `http://localhost:${3000 + Number(process.env.TESSERA_E2E_PORT_OFFSET ?? 100)}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
