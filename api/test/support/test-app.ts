import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import type { AppConfig } from '../../src/config.js';
import { pgliteTemplate } from './pglite-template.js';
import { installResponseCheck, type ResponseCheck } from './response-check.js';
import { type CollectedRoute, routeCollector } from './route-collector.js';

export interface TestApp {
  app: FastifyInstance;
  routes: CollectedRoute[];
  config: AppConfig;
  /** Which database this app got, for test names and messages. */
  database: 'postgresql' | 'pglite';
  /** Every JSON response checked against the OpenAPI document (response-check.ts). */
  responseCheck: ResponseCheck;
  close(): Promise<void>;
}

/** With TEST_PG_URL (an admin URL), a new database in that server; otherwise PGlite in a temp dir. */
export async function createPgDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tessera_api_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Builds the api on a fresh, empty database, collects its routes, and cleans everything up on close. */
export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-api-test-'));
  const adminUrl = process.env.TEST_PG_URL;
  const pgDb = adminUrl ? await createPgDatabase(adminUrl) : undefined;
  if (!pgDb) await fs.cp(await pgliteTemplate(), path.join(dataDir, 'api'), { recursive: true });
  const config: AppConfig = {
    dataDir,
    databaseUrl: pgDb?.url,
    host: '127.0.0.1',
    port: 0,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...overrides,
  };
  let app: FastifyInstance | undefined;
  let responseCheck: ResponseCheck | undefined;
  const close = async () => {
    await app?.close();
    await pgDb?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
    // Loud: a response that contradicts the API's own document fails the test file.
    if (responseCheck?.violations.length) {
      throw new Error(`Responses not matching the OpenAPI document:\n${responseCheck.violations.join('\n')}`);
    }
  };
  try {
    const { routes, onRoute } = routeCollector();
    app = await buildApp(config, { onRoute, instrument: (bare) => (responseCheck = installResponseCheck(bare)) });
    return { app, routes, config, database: pgDb ? 'postgresql' : 'pglite', responseCheck: responseCheck!, close };
  } catch (err) {
    await close();
    throw err;
  }
}
