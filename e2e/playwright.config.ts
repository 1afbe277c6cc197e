import { defineConfig } from '@playwright/test';

/** One product stack for the whole run (global setup), driven by Debian's Chromium. */
export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  globalTeardown: './support/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  // npm test asks for one retry: a test that passes on it is reported 'flaky' (list reporter, npm
  // test's summary) with its failure and page printed, not hidden; one that fails twice fails the run.
  retries: Number(process.env.TESSERA_E2E_RETRIES ?? 0),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // npm test reads the JSON report (PLAYWRIGHT_JSON_OUTPUT_NAME) for its summary line.
  // failure-page prints a failed test's page snapshot: CI keeps the console, not test-results/.
  reporter: [['list'], ['./support/failure-page.reporter.ts'], ...(process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['json'] as const] : [])],
  // The stack is shared: the first-run story (the first admin signs up) must come before every
  // other spec, which sign in as that admin. Running one spec alone runs it first too.
  projects: [
    { name: 'first-run', testMatch: /foundation\.spec\.ts$/ },
    { name: 'product', testIgnore: /foundation\.spec\.ts$/, dependencies: ['first-run'] },
  ],
  use: {
    // The shell's port (support/stack.ts E2E_PORTS: the first of TESSERA_E2E_PORT_BASE when set).
    baseURL: `http://localhost:${process.env.TESSERA_E2E_PORT_BASE ? Number(process.env.TESSERA_E2E_PORT_BASE) : 3000 + Number(process.env.TESSERA_E2E_PORT_OFFSET ?? 100)}`,
    // A trace records a screencast of every test, kept or not: that more than doubled Chromium's
    // CPU on 2 cores (the whole suite: ~12 → ~9 min). Off unless asked for (E2E_TRACE=1 keeps a failed test's trace).
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
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
