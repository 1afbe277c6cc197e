// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the /config route.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CapabilitiesSchema, DEFAULT_FLAGS } from '@tessera/contracts';
import { startTestIssuer, type TestIssuer } from '../../test/helpers/jwks-server.js';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { loadFeatureFlags } from '../config.js';

// GET /config over loopback, as the shell server's /ai proxy reaches it: the feature flags the instance runs with.
describe('GET /config reports the feature flags', () => {
  let issuer: TestIssuer;
  const apps: TestApp[] = [];
  const getConfig = async (app: TestApp) => {
    const base = await app.app.listen({ host: '127.0.0.1', port: 0 });
    const res = await fetch(`${base}/config`);
    assert.equal(res.status, 200);
    return CapabilitiesSchema.parse(await res.json());
  };
  before(async () => {
    issuer = await startTestIssuer();
  });
  after(async () => {
    for (const app of apps) await app.close();
    await issuer?.close();
  });

  test('all on when none is set', async () => {
    const t = await startTestApp(issuer.apiUrl);
    apps.push(t);
    const config = await getConfig(t);
    assert.deepEqual(config.flags, DEFAULT_FLAGS);
    // The live code-runner engine (test apps pin Pyodide: the standard library, no packages).
    assert.deepEqual(config.codeRunner, { engine: 'pyodide', packages: {} });
  });

  test('FEATURE_AUTO_SHEET_CREATION=false and FEATURE_ENHANCED_TABLE_PARSING=0: reported off, the others on, no token needed', async () => {
    const flags = loadFeatureFlags({ FEATURE_AUTO_SHEET_CREATION: 'false', FEATURE_ENHANCED_TABLE_PARSING: '0' });
    const t = await startTestApp(issuer.apiUrl, { flags });
    apps.push(t);
    assert.deepEqual((await getConfig(t)).flags, { ...DEFAULT_FLAGS, autoSheetCreation: false, enhancedTableParsing: false });
  });
});
