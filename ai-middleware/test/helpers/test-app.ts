import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { JWKS_PATH } from '@tessera/contracts';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { type AiConfig, PACKAGE_VERSION } from '../../src/config.js';

/** Where a test app keeps its data: a fresh PGlite folder, or a fresh PostgreSQL database. */
export interface TestStorage {
  dataDir: string;
  databaseUrl: string | undefined;
  cleanup(): Promise<void>;
}

/**
 * With TEST_PG_URL (an admin URL) each test gets a new database created in
 * that server and dropped afterwards; without it, PGlite in a temp folder.
 */
export async function createTestStorage(): Promise<TestStorage> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-ai-test-'));
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) {
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
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  storage: TestStorage;
  close(): Promise<void>;
}

export async function startTestApp(apiUrl: string, overrides: Partial<AiConfig> = {}): Promise<TestApp> {
  const storage = await createTestStorage();
  const app = await buildApp(testConfig(apiUrl, storage, overrides));
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
