import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { JWKS_PATH } from '@tessera/contracts';
import pg from 'pg';
import { type AppOverrides, buildApp } from '../../src/app.js';
import { type AiConfig, PACKAGE_VERSION, RUNNER_DEFAULTS } from '../../src/config.js';
import { pgliteTemplate } from './pglite-template.js';

/** Where a test app keeps its data: a fresh PGlite folder, or a fresh PostgreSQL database. */
export interface TestStorage {
  dataDir: string;
  databaseUrl: string | undefined;
  cleanup(): Promise<void>;
}

/**
 * With TEST_PG_URL (an admin URL) each test gets a new database created in
 * that server and dropped afterwards; without it, PGlite in a temp folder:
 * empty (the app migrates it at start), or with `fromTemplate` a copy of an
 * already migrated one (test/helpers/pglite-template.ts), much faster to open.
 */
export async function createTestStorage(options: { fromTemplate?: boolean } = {}): Promise<TestStorage> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-ai-test-'));
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) {
    if (options.fromTemplate) await cp(await pgliteTemplate(), path.join(dataDir, 'ai'), { recursive: true });
    return { dataDir, databaseUrl: undefined, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const name = `tessera_ai_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.href,
    async cleanup() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function testConfig(apiUrl: string, storage: TestStorage, overrides: Partial<AiConfig> = {}): AiConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    apiUrl,
    jwksUrl: new URL(`${apiUrl}${JWKS_PATH}`),
    dataDir: storage.dataDir,
    databaseUrl: storage.databaseUrl,
    provider: 'builtin',
    logLevel: 'silent',
    version: PACKAGE_VERSION,
    // A listening app warms its runner pool; most tests never run code, so one Pyodide child
    // (not the default two) boots for nothing. Tests that run code set their own pool. Pinned to
    // Pyodide: the gVisor engine has its own suite (test/runner-gvisor-escapes.test.ts), and one
    // self-test sandbox per app would only add time here.
    runner: { ...RUNNER_DEFAULTS, engine: 'pyodide', poolSize: 1 },
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  storage: TestStorage;
  close(): Promise<void>;
}

export async function startTestApp(apiUrl: string, overrides: Partial<AiConfig> = {}, appOverrides: AppOverrides = {}): Promise<TestApp> {
  const storage = await createTestStorage({ fromTemplate: true });
  const app = await buildApp(testConfig(apiUrl, storage, overrides), appOverrides);
  await app.ready();
  return {
    app,
    storage,
    async close() {
      await app.close();
      await storage.cleanup();
    },
  };
}
