import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.port, 8083);
    assert.equal(c.dataDir, path.resolve('./data'));
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.cookieSecure, undefined);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.redisUrl, undefined, 'no Redis: live state in this process');
    assert.equal(c.liveHeartbeatMs, 30_000);
    assert.equal(c.sheetMaxCells, 10_000_000);
    assert.equal(c.importMaxExpandedMb, 200);
    assert.equal(c.workspaceDefaultAccess, 'editor');
    assert.equal(c.trashRetentionDays, 30);
  });

  it('takes WORKSPACE_DEFAULT_ACCESS (editor, viewer, none) and TRASH_RETENTION_DAYS, and refuses the rest', () => {
    assert.equal(loadConfig({ WORKSPACE_DEFAULT_ACCESS: 'Viewer' }).workspaceDefaultAccess, 'viewer');
    assert.equal(loadConfig({ WORKSPACE_DEFAULT_ACCESS: 'none' }).workspaceDefaultAccess, 'none');
    assert.throws(() => loadConfig({ WORKSPACE_DEFAULT_ACCESS: 'owner' }), /^ConfigError: WORKSPACE_DEFAULT_ACCESS must be one of editor, viewer, none, got "owner"$/);
    assert.equal(loadConfig({ TRASH_RETENTION_DAYS: '7' }).trashRetentionDays, 7);
    assert.throws(() => loadConfig({ TRASH_RETENTION_DAYS: '0' }), /TRASH_RETENTION_DAYS must be a whole number from 1 to 3650/);
  });

  it('takes API_TOKEN_RATE_LIMIT (requests per token and minute) in range, default 600', () => {
    assert.equal(loadConfig({}).apiTokenRateLimit, 600);
    assert.equal(loadConfig({ API_TOKEN_RATE_LIMIT: '60' }).apiTokenRateLimit, 60);
    assert.throws(() => loadConfig({ API_TOKEN_RATE_LIMIT: '0' }), /^ConfigError: API_TOKEN_RATE_LIMIT must be a whole number from 1 to 6000, got "0"$/);
    assert.throws(() => loadConfig({ API_TOKEN_RATE_LIMIT: 'lots' }), /API_TOKEN_RATE_LIMIT must be a whole number/);
  });

  it('takes SHEET_MAX_CELLS and IMPORT_MAX_EXPANDED_MB in range and refuses the rest', () => {
    assert.equal(loadConfig({ SHEET_MAX_CELLS: '1000' }).sheetMaxCells, 1000);
    assert.equal(loadConfig({ SHEET_MAX_CELLS: '5_000_000' }).sheetMaxCells, 5_000_000);
    assert.equal(loadConfig({ IMPORT_MAX_EXPANDED_MB: '50' }).importMaxExpandedMb, 50);
    assert.throws(() => loadConfig({ SHEET_MAX_CELLS: '999' }), /^ConfigError: SHEET_MAX_CELLS must be a whole number from 1000 to 100000000, got "999"$/);
    assert.throws(() => loadConfig({ SHEET_MAX_CELLS: '200000000' }), /SHEET_MAX_CELLS must be a whole number/);
    assert.throws(() => loadConfig({ SHEET_MAX_CELLS: 'lots' }), /SHEET_MAX_CELLS must be a whole number/);
    assert.throws(() => loadConfig({ SHEET_MAX_CELLS: '10000.5' }), /SHEET_MAX_CELLS must be a whole number/);
    assert.throws(() => loadConfig({ IMPORT_MAX_EXPANDED_MB: '0' }), /IMPORT_MAX_EXPANDED_MB must be a whole number from 1 to 2048/);
    assert.throws(() => loadConfig({ IMPORT_MAX_EXPANDED_MB: '1.5' }), /IMPORT_MAX_EXPANDED_MB/);
  });

  it('takes EXPORT_FORMULA_MAX_CELLS from 0 (never) up to the grid\'s bound, default the bound', () => {
    assert.equal(loadConfig({}).exportFormulaMaxCells, 2_600_000);
    assert.equal(loadConfig({ EXPORT_FORMULA_MAX_CELLS: '0' }).exportFormulaMaxCells, 0);
    assert.equal(loadConfig({ EXPORT_FORMULA_MAX_CELLS: '500000' }).exportFormulaMaxCells, 500_000);
    assert.throws(() => loadConfig({ EXPORT_FORMULA_MAX_CELLS: '2600001' }), /^ConfigError: EXPORT_FORMULA_MAX_CELLS must be a whole number from 0 to 2600000, got "2600001"$/);
    assert.throws(() => loadConfig({ EXPORT_FORMULA_MAX_CELLS: '-1' }), /EXPORT_FORMULA_MAX_CELLS/);
  });

  it('takes a redis:// or rediss:// REDIS_URL and a heartbeat in ms', () => {
    assert.equal(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl, 'redis://127.0.0.1:6379');
    assert.equal(loadConfig({ REDIS_URL: 'rediss://:secret@cache.internal:6380/2' }).redisUrl, 'rediss://:secret@cache.internal:6380/2');
    assert.equal(loadConfig({ REDIS_URL: '  ' }).redisUrl, undefined);
    assert.equal(loadConfig({ LIVE_HEARTBEAT_MS: '500' }).liveHeartbeatMs, 500);
  });

  it('refuses a REDIS_URL that is not Redis and a heartbeat out of range', () => {
    assert.throws(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' }), /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    assert.throws(() => loadConfig({ REDIS_URL: '127.0.0.1:6379' }), /REDIS_URL/);
    assert.throws(() => loadConfig({ LIVE_HEARTBEAT_MS: '10' }), /LIVE_HEARTBEAT_MS/);
    assert.throws(() => loadConfig({ LIVE_HEARTBEAT_MS: 'often' }), /LIVE_HEARTBEAT_MS/);
  });

  it('reads every variable it knows', () => {
    const c = loadConfig({
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h/db',
      HOST: '0.0.0.0',
      API_PORT: '9999',
      JWT_PRIVATE_KEY: 'a\\nb',
      COOKIE_SECURE: 'false',
      LOG_LEVEL: 'debug',
    });
    assert.deepEqual(
      [c.dataDir, c.databaseUrl, c.host, c.port, c.jwtPrivateKeyPem, c.cookieSecure, c.logLevel],
      ['/tmp/x', 'postgres://u@h/db', '0.0.0.0', 9999, 'a\nb', false, 'debug'],
    );
  });

  it('refuses a bad port or flag', () => {
    assert.throws(() => loadConfig({ API_PORT: 'eighty' }), /API_PORT/);
    assert.throws(() => loadConfig({ COOKIE_SECURE: 'maybe' }), /COOKIE_SECURE/);
  });
  it('TRUST_PROXY: loopback by default; addresses and CIDRs of IPv4 and IPv6; none; a typo refused', () => {
    assert.deepEqual(loadConfig({}).trustProxy, ['loopback']);
    assert.deepEqual(loadConfig({ TRUST_PROXY: ' ' }).trustProxy, ['loopback']);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '172.28.0.0/16, 10.1.2.3,fd00::/8,::1, loopback' }).trustProxy, [
      '172.28.0.0/16',
      '10.1.2.3',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'none' }).trustProxy, []);
    for (const bad of ['172.28.0.0/33', 'fd00::/129', 'proxy.internal', '10.0.0.0/8/1', '10.0.0.0/', '1.2.3.4,,5.6.7.8', '*']) {
      assert.throws(() => loadConfig({ TRUST_PROXY: bad }), /^ConfigError: TRUST_PROXY must be a comma-separated list of IP addresses, CIDRs/, bad);
    }
  });

  it('takes LIVE_GROUP_WINDOW_MS (default 25) and refuses one out of range', () => {
    assert.equal(loadConfig({}).liveGroupWindowMs, 25);
    assert.equal(loadConfig({ LIVE_GROUP_WINDOW_MS: '0' }).liveGroupWindowMs, 0);
    assert.throws(() => loadConfig({ LIVE_GROUP_WINDOW_MS: '1001' }), /LIVE_GROUP_WINDOW_MS must be a whole number from 0 to 1000, got "1001"/);
  });

  it('takes LIVE_GROUP_MAX_WAIT_MS (default 50) and refuses one out of range', () => {
    assert.equal(loadConfig({}).liveGroupMaxWaitMs, 50);
    assert.equal(loadConfig({ LIVE_GROUP_MAX_WAIT_MS: '0' }).liveGroupMaxWaitMs, 0);
    assert.throws(() => loadConfig({ LIVE_GROUP_MAX_WAIT_MS: '1001' }), /LIVE_GROUP_MAX_WAIT_MS must be a whole number from 0 to 1000, got "1001"/);
  });

  it('takes LIVE_GROUP_FILL_OPS (default 8) and refuses one out of range', () => {
    assert.equal(loadConfig({}).liveGroupFillOps, 8);
    assert.equal(loadConfig({ LIVE_GROUP_FILL_OPS: '28' }).liveGroupFillOps, 28);
    assert.throws(() => loadConfig({ LIVE_GROUP_FILL_OPS: '0' }), /LIVE_GROUP_FILL_OPS must be a whole number from 1 to 500, got "0"/);
    assert.throws(() => loadConfig({ LIVE_GROUP_FILL_OPS: '501' }), /LIVE_GROUP_FILL_OPS must be a whole number from 1 to 500, got "501"/);
  });

  it('takes LIVE_WARMUP_MS (default 1000, 0: no warm-up) and refuses one out of range', () => {
    assert.equal(loadConfig({}).liveWarmupMs, 1000);
    assert.equal(loadConfig({ LIVE_WARMUP_MS: '0' }).liveWarmupMs, 0);
    assert.throws(() => loadConfig({ LIVE_WARMUP_MS: '10001' }), /LIVE_WARMUP_MS must be a whole number from 0 to 10000, got "10001"/);
  });

  it('takes LIVE_OUTBOUND_MAX_BYTES (default 8 MiB) and refuses one out of range', () => {
    assert.equal(loadConfig({}).liveOutboundMaxBytes, 8 * 1024 * 1024);
    assert.equal(loadConfig({ LIVE_OUTBOUND_MAX_BYTES: '1048576' }).liveOutboundMaxBytes, 1_048_576);
    assert.throws(() => loadConfig({ LIVE_OUTBOUND_MAX_BYTES: '1000' }), /LIVE_OUTBOUND_MAX_BYTES must be a whole number from 65536 to 1073741824, got "1000"/);
    assert.throws(() => loadConfig({ LIVE_OUTBOUND_MAX_BYTES: 'lots' }), /LIVE_OUTBOUND_MAX_BYTES/);
  });
  describe('single sign-on (OIDC_*) and PASSWORD_LOGIN', () => {
    const base = { OIDC_ISSUER: 'https://id.example.com/realms/acme', OIDC_CLIENT_ID: 'tessera' };

    it('is off by default, with password sign-in on', () => {
      const c = loadConfig({});
      assert.equal(c.oidc, undefined);
      assert.equal(c.passwordLogin, true);
    });

    it('takes the issuer and client with the documented defaults (name SSO, scopes openid profile email, public client)', () => {
      assert.deepEqual(loadConfig(base).oidc, {
        issuer: 'https://id.example.com/realms/acme',
        clientId: 'tessera',
        clientSecret: undefined,
        name: 'SSO',
        scopes: ['openid', 'profile', 'email'],
      });
      const c = loadConfig({ ...base, OIDC_CLIENT_SECRET: 's3cret', OIDC_NAME: 'Acme ID', OIDC_SCOPES: 'openid,email groups', PASSWORD_LOGIN: 'false' });
      assert.equal(c.oidc?.clientSecret, 's3cret');
      assert.equal(c.oidc?.name, 'Acme ID');
      assert.deepEqual(c.oidc?.scopes, ['openid', 'email', 'groups']);
      assert.equal(c.passwordLogin, false);
      assert.equal(loadConfig({ ...base, OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.issuer, 'http://127.0.0.1:9000');
    });

    it('takes OIDC_ROLE_CLAIM with OIDC_ROLE_MAP (value=role pairs)', () => {
      const c = loadConfig({ ...base, OIDC_ROLE_CLAIM: 'realm_access.roles', OIDC_ROLE_MAP: 'tessera-admins=admin, cn=staff=User' });
      assert.equal(c.oidc?.roleClaim, 'realm_access.roles');
      assert.deepEqual(c.oidc?.roleMap, [
        { value: 'tessera-admins', role: 'admin' },
        { value: 'cn=staff', role: 'user' },
      ]);
    });

    const refused: Array<[Record<string, string>, RegExp]> = [
      [{ OIDC_CLIENT_ID: 'tessera' }, /^ConfigError: OIDC_CLIENT_ID is set but OIDC_ISSUER is not: set OIDC_ISSUER to turn single sign-on on, or unset them$/],
      [{ PASSWORD_LOGIN: 'false' }, /^ConfigError: PASSWORD_LOGIN=false needs single sign-on \(OIDC_ISSUER\): otherwise nobody could sign in$/],
      [{ PASSWORD_LOGIN: 'nope' }, /^ConfigError: PASSWORD_LOGIN must be true or false, got "nope"$/],
      [{ OIDC_ISSUER: 'https://id.example.com' }, /^ConfigError: OIDC_CLIENT_ID is required with OIDC_ISSUER/],
      [{ ...base, OIDC_ISSUER: 'id.example.com' }, /^ConfigError: OIDC_ISSUER must be the provider's issuer URL \(https:\/\/\.\.\.\), got "id.example.com"$/],
      [{ ...base, OIDC_ISSUER: 'http://id.example.com' }, /^ConfigError: OIDC_ISSUER must be an https:\/\/ URL \(http:\/\/ only on localhost\), got "http:\/\/id.example.com"$/],
      [{ ...base, OIDC_ISSUER: 'https://id.example.com/?x=1' }, /OIDC_ISSUER must be a plain issuer URL without query/],
      [{ ...base, OIDC_NAME: 'x'.repeat(41) }, /^ConfigError: OIDC_NAME is the sign-in button's text and cannot exceed 40 characters, got 41$/],
      [{ ...base, OIDC_SCOPES: 'profile email' }, /^ConfigError: OIDC_SCOPES must include openid \(sign-in needs an ID token\), got "profile email"$/],
      [{ ...base, OIDC_SCOPES: 'openid "quoted"' }, /^ConfigError: OIDC_SCOPES must be scope names separated by spaces or commas; ""quoted"" is not one$/],
      [{ ...base, OIDC_ROLE_CLAIM: 'groups' }, /^ConfigError: OIDC_ROLE_CLAIM is set without OIDC_ROLE_MAP/],
      [{ ...base, OIDC_ROLE_MAP: 'a=admin' }, /^ConfigError: OIDC_ROLE_MAP is set without OIDC_ROLE_CLAIM/],
      [{ ...base, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'admins' }, /^ConfigError: OIDC_ROLE_MAP must be value=role pairs separated by commas \(tessera-admins=admin,staff=user\); "admins" is not one$/],
      [{ ...base, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'admins=superadmin' }, /^ConfigError: OIDC_ROLE_MAP roles must be one of user, admin; "admins=superadmin" gives "superadmin"$/],
      [{ ...base, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'a=admin,a=user' }, /^ConfigError: OIDC_ROLE_MAP names "a" twice$/],
      [{ ...base, OIDC_ROLE_CLAIM: 'a b', OIDC_ROLE_MAP: 'a=admin' }, /^ConfigError: OIDC_ROLE_CLAIM must be a claim name or a dotted path/],
    ];
    for (const [env, text] of refused) {
      it(`refuses ${JSON.stringify(env)}`, () => assert.throws(() => loadConfig(env), text));
    }
  });
});
