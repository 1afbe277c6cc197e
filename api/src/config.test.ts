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

  it('takes LIVE_OUTBOUND_MAX_BYTES (default 8 MiB) and refuses one out of range', () => {
    assert.equal(loadConfig({}).liveOutboundMaxBytes, 8 * 1024 * 1024);
    assert.equal(loadConfig({ LIVE_OUTBOUND_MAX_BYTES: '1048576' }).liveOutboundMaxBytes, 1_048_576);
    assert.throws(() => loadConfig({ LIVE_OUTBOUND_MAX_BYTES: '1000' }), /LIVE_OUTBOUND_MAX_BYTES must be a whole number from 65536 to 1073741824, got "1000"/);
    assert.throws(() => loadConfig({ LIVE_OUTBOUND_MAX_BYTES: 'lots' }), /LIVE_OUTBOUND_MAX_BYTES/);
  });
});
